package io.distlock.redis.fuzz;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The broken local handover of {@link NaiveLock}: a release hands its key to a thread of this JVM that polls for it,
 * as long as one does, and never asks whether the key's lease in Redis still runs.
 */
final class LocalHandoverPastLease {

    private final ConcurrentHashMap<String, AtomicInteger> pollers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, NaiveLockHandle> handedOver = new ConcurrentHashMap<>();

    /** A thread starts ({@code +1}) or stops ({@code -1}) polling for the key. */
    void polling(String key, int change) {
        pollers.computeIfAbsent(key, k -> new AtomicInteger()).addAndGet(change);
    }

    /** Leaves the released handle's key for a polling thread; false if none polls, so the key goes back to Redis. */
    boolean handOver(NaiveLockHandle released) {
        AtomicInteger polling = pollers.get(released.key());
        if (polling == null || polling.get() <= 0) {
            return false;
        }
        return handedOver.putIfAbsent(released.key(), released) == null;
    }

    /** The key as a release left it for this thread, or null. */
    @Nullable
    NaiveLockHandle take(String key) {
        return handedOver.remove(key);
    }
}
