package io.distlock.redis;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The handles that threads own through {@link java.util.concurrent.locks.Lock} views. That interface's contract is
 * that the locking thread owns the lock until it unlocks it, so these holds, unlike plain handles, may be re-entered by
 * their thread anywhere.
 */
final class ThreadOwnedHandles {

    private final Map<Owner, Deque<RedisLockHandle>> owned = new ConcurrentHashMap<>();

    /** The current thread's innermost handle on {@code key}, or null. */
    @Nullable
    RedisLockHandle innermost(String key) {
        Deque<RedisLockHandle> handles = owned.get(new Owner(Thread.currentThread(), key));
        return handles == null ? null : handles.peekLast();
    }

    /** The current thread now owns {@code handle}. */
    void add(RedisLockHandle handle) {
        owned.computeIfAbsent(new Owner(Thread.currentThread(), handle.key()), owner -> new ArrayDeque<>(2))
                .addLast(handle);
    }

    /** The current thread gave up {@code handle}. */
    void remove(RedisLockHandle handle) {
        owned.computeIfPresent(new Owner(Thread.currentThread(), handle.key()), (owner, handles) -> {
            handles.removeLastOccurrence(handle);
            return handles.isEmpty() ? null : handles;
        });
    }

    private record Owner(Thread thread, String key) {}
}
