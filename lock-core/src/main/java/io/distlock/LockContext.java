package io.distlock;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Optional;

/**
 * The locks held for the work running on the current thread: by a {@link DistributedLock @DistributedLock} method or
 * by {@link Lock#callWithLock}, innermost last. Code called from that work can read the held lock's fencing token
 * without having it passed down:
 *
 * <pre>{@code
 * long token = LockContext.current().orElseThrow().fencingToken();
 * }</pre>
 */
public final class LockContext {

    private static final ThreadLocal<Deque<LockHandle>> HELD = new ThreadLocal<>();

    private LockContext() {}

    /**
     * The innermost lock held for the work on this thread.
     *
     * @return the handle, or empty outside locked work
     */
    public static Optional<LockHandle> current() {
        Deque<LockHandle> held = HELD.get();
        return held == null ? Optional.empty() : Optional.ofNullable(held.peekLast());
    }

    /**
     * The innermost lock with the given key held for the work on this thread.
     *
     * @param key the lock's key
     * @return the handle, or empty if no work on this thread holds that key
     */
    public static Optional<LockHandle> current(String key) {
        Deque<LockHandle> held = HELD.get();
        if (held != null) {
            for (Iterator<LockHandle> inner = held.descendingIterator(); inner.hasNext(); ) {
                LockHandle handle = inner.next();
                if (handle.key().equals(key)) {
                    return Optional.of(handle);
                }
            }
        }
        return Optional.empty();
    }

    static void push(LockHandle handle) {
        Deque<LockHandle> held = HELD.get();
        if (held == null) {
            held = new ArrayDeque<>(2);
            HELD.set(held);
        }
        held.addLast(handle);
    }

    static void pop(LockHandle handle) {
        Deque<LockHandle> held = HELD.get();
        if (held != null) {
            held.removeLastOccurrence(handle);
            if (held.isEmpty()) {
                HELD.remove();
            }
        }
    }
}
