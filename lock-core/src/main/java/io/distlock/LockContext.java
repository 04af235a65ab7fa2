package io.distlock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The locks held for the work running on the current thread: by a {@link DistributedLock @DistributedLock} method, by
 * {@link Lock#callWithLock}, or inside a scope opened with {@link #enter(LockHandle)}, innermost last. Code called from
 * that work can read the held lock's fencing token without having it passed down:
 *
 * <pre>{@code
 * long token = LockContext.current().orElseThrow().fencingToken();
 * }</pre>
 *
 * <p>These scopes are also what makes an acquisition re-entrant: while a scope of this thread holds a key, acquiring
 * the same key through the same {@link Lock} re-enters that hold instead of waiting for it (see {@link Lock}).
 */
public final class LockContext {

    private static final ThreadLocal<Deque<Entry>> HELD = new ThreadLocal<>();

    private LockContext() {}

    /**
     * The innermost lock held for the work on this thread.
     *
     * @return the handle, or empty outside locked work
     */
    public static Optional<LockHandle> current() {
        Deque<Entry> held = HELD.get();
        return held == null || held.isEmpty() ? Optional.empty() : Optional.of(held.peekLast().handle);
    }

    /**
     * The innermost lock with the given key held for the work on this thread.
     *
     * @param key the lock's key
     * @return the handle, or empty if no work on this thread holds that key
     */
    public static Optional<LockHandle> current(String key) {
        return current(key, handle -> true);
    }

    /**
     * The innermost lock with the given key held for the work on this thread that {@code which} accepts: for a {@link
     * Lock} implementation to find its own scopes, where other locks may use the same key text (the trees of a path
     * lock, for one).
     *
     * @param key the lock's key
     * @param which accepts the handles to look at
     * @return the handle, or empty if no work on this thread holds that key with such a handle
     */
    public static Optional<LockHandle> current(String key, Predicate<? super LockHandle> which) {
        Deque<Entry> held = HELD.get();
        if (held != null) {
            for (Iterator<Entry> inner = held.descendingIterator(); inner.hasNext(); ) {
                LockHandle handle = inner.next().handle;
                if (handle.key().equals(key) && which.test(handle)) {
                    return Optional.of(handle);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Opens a scope in which the current thread works under {@code handle}: until the scope is closed, {@link
     * #current()} returns it, and acquisitions of its key through the same {@link Lock} by this thread re-enter it.
     * Close the scope on the same thread, before the handle is released or handed to another thread:
     *
     * <pre>{@code
     * try (LockHandle held = lock.acquire("job");
     *         LockContext.Scope scope = LockContext.enter(held)) {
     *     runJob(); // may call lock.acquire("job") again, and re-enters
     * }
     * }</pre>
     *
     * @param handle the held lock the thread now works under
     * @return the scope, to close on this thread
     * @throws IllegalArgumentException if {@code handle} is null
     */
    public static Scope enter(LockHandle handle) {
        if (handle == null) {
            throw new IllegalArgumentException("handle must not be null");
        }
        push(handle, null);
        Thread opener = Thread.currentThread();
        return new Scope() {
            private boolean closed;

            @Override
            public void close() {
                if (Thread.currentThread() != opener) {
                    throw new IllegalStateException("the scope of lock '" + handle.key() + "' was opened by thread "
                            + opener.getName() + " and must be closed by it");
                }
                if (!closed) {
                    closed = true;
                    pop(handle);
                }
            }
        };
    }

    /** A scope opened by {@link #enter(LockHandle)}; closing it twice does nothing. */
    public interface Scope extends AutoCloseable {

        /**
         * Ends the scope: the thread no longer works under its handle. The handle itself stays held.
         *
         * @throws IllegalStateException if called by another thread than the one that opened the scope
         */
        @Override
        void close();
    }

    /**
     * Opens a scope.
     *
     * @param onLost the policy of locked work that reports a loss, or null for a scope opened by the application
     */
    static void push(LockHandle handle, @Nullable OnLockLost onLost) {
        Deque<Entry> held = HELD.get();
        if (held == null) {
            held = new ArrayDeque<>(2);
            HELD.set(held);
        }
        held.addLast(new Entry(handle, onLost));
    }

    /**
     * Closes the innermost scope of {@code handle}.
     *
     * @return whether a transaction committed on this thread while the scope was open
     */
    static boolean pop(LockHandle handle) {
        Deque<Entry> held = HELD.get();
        if (held == null) {
            return false;
        }
        boolean committed = false;
        for (Iterator<Entry> inner = held.descendingIterator(); inner.hasNext(); ) {
            Entry entry = inner.next();
            if (entry.handle == handle) {
                committed = entry.committed;
                inner.remove();
                break;
            }
        }
        if (held.isEmpty()) {
            HELD.remove();
        }
        return committed;
    }

    /** The open scopes of this thread whose locked work throws when its lock is lost, outermost first. */
    static List<LockHandle> throwingOnLoss() {
        Deque<Entry> held = HELD.get();
        List<LockHandle> handles = new ArrayList<>();
        if (held != null) {
            for (Entry entry : held) {
                if (entry.onLost == OnLockLost.THROW) {
                    handles.add(entry.handle);
                }
            }
        }
        return handles;
    }

    /** Marks every open scope of this thread: a transaction committed while it was open. */
    static void transactionCommitted() {
        Deque<Entry> held = HELD.get();
        if (held != null) {
            held.forEach(entry -> entry.committed = true);
        }
    }

    private static final class Entry {
        private final LockHandle handle;
        private final @Nullable OnLockLost onLost;
        private boolean committed;

        private Entry(LockHandle handle, @Nullable OnLockLost onLost) {
            this.handle = handle;
            this.onLost = onLost;
        }
    }
}
