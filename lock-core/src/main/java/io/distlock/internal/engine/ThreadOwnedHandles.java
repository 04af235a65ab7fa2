package io.distlock.internal.engine;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The handles that threads own through the {@link JavaLockView}s of one lock, and the lookup an acquisition makes to
 * re-enter. {@link java.util.concurrent.locks.Lock}'s contract is that the locking thread owns the lock until it
 * unlocks it, so these holds, unlike those of plain handles, are re-entered by their thread anywhere: through any view
 * of the lock, or plain. For lock implementations: a lock keeps one for all its views and asks it on every
 * acquisition; applications never see it.
 */
public final class ThreadOwnedHandles {

    private final Map<Owner, Deque<LockHandle>> owned = new ConcurrentHashMap<>();

    /** Creates a registry in which no thread owns a handle yet. */
    public ThreadOwnedHandles() {}

    /**
     * The hold that an acquisition of {@code key} by the current thread re-enters: that of the innermost {@link
     * LockContext} scope that holds the key through {@code holds}, or else that of the current thread's innermost
     * view lock on the key, among the holds {@code which} accepts.
     *
     * @param key the key being acquired
     * @param holds the holds of the lock that acquires it
     * @param which which of those holds the acquisition may re-enter
     * @param <H> the backend's hold
     * @return the hold, or null if the current thread holds none that fits
     */
    public <H extends HeldKey> @Nullable H heldByCurrentThread(
            String key, HoldOperations<H> holds, Predicate<? super H> which) {
        Predicate<LockHandle> accepted = handle -> {
            H hold = holdOf(handle, holds);
            return hold != null && which.test(hold);
        };
        Optional<LockHandle> scoped = LockContext.current(key, accepted);
        LockHandle handle = scoped.isPresent() ? scoped.get() : innermost(key, accepted);
        return handle == null ? null : holdOf(handle, holds);
    }

    /** The current thread now owns {@code handle}; inspection names the thread as its hold's owner. */
    void add(LockHandle handle) {
        owned.computeIfAbsent(new Owner(Thread.currentThread(), handle.key()), owner -> new ArrayDeque<>(2))
                .addLast(handle);
        if (handle instanceof HoldHandle<?> own) {
            own.boundToCurrentThread();
        }
    }

    /** The current thread gave up {@code handle}. */
    void remove(LockHandle handle) {
        owned.computeIfPresent(new Owner(Thread.currentThread(), handle.key()), (owner, handles) -> {
            handles.removeLastOccurrence(handle);
            return handles.isEmpty() ? null : handles;
        });
    }

    private @Nullable LockHandle innermost(String key, Predicate<LockHandle> which) {
        Deque<LockHandle> handles = owned.get(new Owner(Thread.currentThread(), key));
        if (handles != null) {
            for (Iterator<LockHandle> inner = handles.descendingIterator(); inner.hasNext(); ) {
                LockHandle handle = inner.next();
                if (which.test(handle)) {
                    return handle;
                }
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked") // a handle made for these holds is on one of their holds
    private static <H extends HeldKey> @Nullable H holdOf(LockHandle handle, HoldOperations<H> holds) {
        return handle instanceof HoldHandle<?> own && own.belongsTo(holds) ? (H) own.hold() : null;
    }

    private record Owner(Thread thread, String key) {}
}
