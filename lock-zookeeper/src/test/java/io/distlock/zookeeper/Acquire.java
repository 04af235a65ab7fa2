package io.distlock.zookeeper;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Drives a {@link LeaseStore.Acquisition} the way {@code StoreLock} does, for tests of the store alone. */
final class Acquire {

    private Acquire() {}

    static @Nullable StoreLease take(LeaseStore store, String key, Duration lease, Duration wait)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        try (LeaseStore.Acquisition acquisition =
                store.begin(key, UUID.randomUUID().toString(), lease)) {
            while (true) {
                StoreLease taken = acquisition.tryTake();
                if (taken != null || System.nanoTime() - deadline >= 0) {
                    return taken;
                }
                acquisition.awaitChance(deadline);
            }
        }
    }

    static @Nullable StoreLease tryTake(LeaseStore store, String key, Duration lease) throws InterruptedException {
        return take(store, key, lease, Duration.ZERO);
    }
}
