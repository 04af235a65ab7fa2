package io.distlock.zookeeper;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Drives a {@link LeaseStore.Acquisition} the way {@code StoreLock} does, for tests of the store alone. */
final class Acquire {

    private Acquire() {}

    static @Nullable StoreLease take(LeaseStore store, String key, Duration lease, Duration wait)
            throws InterruptedException {
        return take(store.begin(key, UUID.randomUUID().toString(), lease), wait);
    }

    /** Takes a path of a tree, given as {@code "A/B"}, {@code ""} for the whole tree. */
    static @Nullable StoreLease takePath(LeaseStore store, String tree, String path, Duration lease, Duration wait)
            throws InterruptedException {
        List<String> segments = path.isEmpty() ? List.of() : List.of(path.split("/"));
        return take(store.beginPath(tree, segments, UUID.randomUUID().toString(), "test", lease), wait);
    }

    private static @Nullable StoreLease take(LeaseStore.Acquisition started, Duration wait)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        try (LeaseStore.Acquisition acquisition = started) {
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
