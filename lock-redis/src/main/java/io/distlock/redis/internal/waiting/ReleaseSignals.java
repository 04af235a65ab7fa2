package io.distlock.redis.internal.waiting;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells the waiters that do not queue in the {@link WaitingRoom} (readers, who must never be handed the lock key) that
 * a lock key was released, here or in another process: each waits for the next release of its key and then tries again.
 */
public final class ReleaseSignals {

    private final Map<String, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();

    /** A future that completes at the next release of {@code lockKey}; {@link #forget} it when done waiting. */
    public CompletableFuture<Void> next(String lockKey) {
        CompletableFuture<Void> signal = new CompletableFuture<>();
        // Added inside compute: a forget() that empties the set removes it from the map atomically, so adding to a set
        // fetched before would add to one that no release can reach any more.
        waiting.compute(lockKey, (key, signals) -> {
            Set<CompletableFuture<Void>> live = signals == null ? ConcurrentHashMap.newKeySet() : signals;
            live.add(signal);
            return live;
        });
        return signal;
    }

    public void forget(String lockKey, CompletableFuture<Void> signal) {
        waiting.computeIfPresent(lockKey, (key, signals) -> {
            signals.remove(signal);
            return signals.isEmpty() ? null : signals;
        });
    }

    public void released(String lockKey) {
        Set<CompletableFuture<Void>> signals = waiting.get(lockKey);
        if (signals != null) {
            signals.forEach(signal -> signal.complete(null));
        }
    }

    /** Adds how many waiters wait here, by the lock key they wait for, to {@code counts}. */
    void countWaiting(Map<String, Integer> counts) {
        waiting.forEach((lockKey, signals) -> {
            int size = signals.size();
            if (size > 0) {
                counts.merge(lockKey, size, Integer::sum);
            }
        });
    }

    /** Wakes every waiter: releases may have been missed, or the lock is closing. */
    void releasedAll() {
        waiting.values().forEach(signals -> signals.forEach(signal -> signal.complete(null)));
    }
}
