package io.distlock.example.file;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** One owner's attempt at a key: it takes the file's hold when free or expired, and polls while another holds it. */
final class FileAcquisition implements LeaseStore.Acquisition {

    private static final long FIRST_POLL_MILLIS = 10;
    private static final long LONGEST_POLL_MILLIS = 100;

    private final FileLeaseStore store;
    private final String key;
    private final String owner;
    private final long leaseMillis;
    private long pollMillis = FIRST_POLL_MILLIS;
    private long releasesSeen;

    FileAcquisition(FileLeaseStore store, String key, String owner, long leaseMillis) {
        this.store = store;
        this.key = key;
        this.owner = owner;
        this.leaseMillis = leaseMillis;
    }

    @Override
    public @Nullable StoreLease tryTake() {
        releasesSeen = store.releases().count();
        Long fence = store.call(
                key,
                "acquiring",
                () -> store.file(key).change((state, now) -> {
                    if (state.heldAt(now)) {
                        return new KeyFile.Outcome<Long>(state, null);
                    }
                    long next = state.fence() + 1;
                    return new KeyFile.Outcome<>(new KeyFile.State(owner, now + leaseMillis, next), next);
                }));
        return fence == null ? null : new FileLease(store, key, owner, fence);
    }

    @Override
    public void awaitChance(long deadlineNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        long jittered = pollMillis / 2 + ThreadLocalRandom.current().nextLong(pollMillis / 2 + 1);
        store.releases().awaitAfter(releasesSeen, Math.max(1, Math.min(left, jittered)));
        pollMillis = Math.min(LONGEST_POLL_MILLIS, pollMillis * 2);
    }

    /** Nothing to clean up: a waiter leaves no trace in the file. */
    @Override
    public void close() {}
}
