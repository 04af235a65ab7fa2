package io.distlock.redis;

import io.distlock.LockHandle;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The handles that threads own through {@link java.util.concurrent.locks.Lock} views. That interface's contract is
 * that the locking thread owns the lock until it unlocks it, so these holds, unlike plain handles, may be re-entered by
 * their thread anywhere.
 */
final class ThreadOwnedHandles {

    private final Map<Owner, Deque<LockHandle>> owned = new ConcurrentHashMap<>();

    /** The current thread's innermost handle on {@code key} that {@code which} accepts, or null. */
    @Nullable
    LockHandle innermost(String key, Predicate<LockHandle> which) {
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

    /** The current thread now owns {@code handle}. */
    void add(LockHandle handle) {
        owned.computeIfAbsent(new Owner(Thread.currentThread(), handle.key()), owner -> new ArrayDeque<>(2))
                .addLast(handle);
    }

    /** The current thread gave up {@code handle}. */
    void remove(LockHandle handle) {
        owned.computeIfPresent(new Owner(Thread.currentThread(), handle.key()), (owner, handles) -> {
            handles.removeLastOccurrence(handle);
            return handles.isEmpty() ? null : handles;
        });
    }

    private record Owner(Thread thread, String key) {}
}
