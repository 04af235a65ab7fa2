package io.distlock.redis.internal.waiting;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells the waiters that do not queue in the {@link WaitingRoom} (readers, who must never be handed the lock key, and
 * the holders-to-be of semaphore permits) that a lock key was released, here or in another process: each waits for the
 * next release of its key and then tries again.
 *
 * <p>A release frees the whole key for readers, so it wakes every waiting reader. It frees one permit of a semaphore
 * key, so signals {@linkplain #onePerRelease() one per release} wake only the waiter that waited longest: the others
 * would be refused. A waiter woken so that leaves without trying again {@linkplain #forget(String, CompletableFuture,
 * boolean) passes its wake-up on}, so that none is lost.
 */
public final class ReleaseSignals {

    private final Map<String, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();
    private final boolean onePerRelease;

    /** Signals that wake every waiter of a key at each of its releases. */
    public ReleaseSignals() {
        this(false);
    }

    private ReleaseSignals(boolean onePerRelease) {
        this.onePerRelease = onePerRelease;
    }

    /**
     * Signals that wake one waiter of a key at each of its releases, the one that waited longest.
     *
     * @return the signals
     */
    public static ReleaseSignals onePerRelease() {
        return new ReleaseSignals(true);
    }

    /** A future that completes at the next release of {@code lockKey}; {@link #forget} it when done waiting. */
    public CompletableFuture<Void> next(String lockKey) {
        CompletableFuture<Void> signal = new CompletableFuture<>();
        // Added inside compute: a forget() that empties the set removes it from the map atomically, so adding to a set
        // fetched before would add to one that no release can reach any more.
        waiting.compute(lockKey, (key, signals) -> {
            Set<CompletableFuture<Void>> live = signals == null ? newSet() : signals;
            live.add(signal);
            return live;
        });
        return signal;
    }

    public void forget(String lockKey, CompletableFuture<Void> signal) {
        forget(lockKey, signal, false);
    }

    /**
     * Forgets a signal of {@link #next}.
     *
     * @param leaving whether its waiter stops waiting now, without another try: then a wake-up it got that only one
     *     waiter gets goes to the next waiter
     */
    public void forget(String lockKey, CompletableFuture<Void> signal, boolean leaving) {
        waiting.computeIfPresent(lockKey, (key, signals) -> {
            signals.remove(signal);
            return signals.isEmpty() ? null : signals;
        });
        if (onePerRelease && leaving && signal.isDone()) {
            released(lockKey);
        }
    }

    public void released(String lockKey) {
        Set<CompletableFuture<Void>> signals = waiting.get(lockKey);
        if (signals == null) {
            return;
        }
        if (!onePerRelease) {
            signals.forEach(signal -> signal.complete(null));
            return;
        }
        // Nothing waits on these futures' completion but their own waiter's get, so completing under the lock runs
        // no one else's code.
        synchronized (signals) {
            for (CompletableFuture<Void> signal : signals) {
                if (signal.complete(null)) {
                    return;
                }
            }
        }
    }

    /** Ordered by arrival where one waiter is woken, so that the one that waited longest is. */
    private Set<CompletableFuture<Void>> newSet() {
        return onePerRelease ? Collections.synchronizedSet(new LinkedHashSet<>()) : ConcurrentHashMap.newKeySet();
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
