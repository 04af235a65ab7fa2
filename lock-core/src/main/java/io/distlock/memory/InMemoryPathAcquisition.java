package io.distlock.memory;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of a path of a tree in an {@link InMemoryLeaseStore}: it takes the path while no live grant of the
 * tree holds the path, an ancestor or a descendant. Paths wait in no line: each waiter tries again when any grant is
 * released, or when the first conflicting lease ends.
 */
final class InMemoryPathAcquisition implements LeaseStore.Acquisition {

    private final InMemoryLeaseStore store;
    private final String tree;
    private final List<String> path;
    private final String owner;
    private final String holder;
    private final long leaseNanos;

    InMemoryPathAcquisition(
            InMemoryLeaseStore store, String tree, List<String> path, String owner, String holder, Duration lease) {
        this.store = store;
        this.tree = tree;
        this.path = path;
        this.owner = owner;
        this.holder = holder;
        this.leaseNanos = lease.toNanos();
    }

    @Override
    public @Nullable StoreLease tryTake() {
        synchronized (store.monitor()) {
            long now = System.nanoTime();
            if (store.holds().firstConflictingPathEnd(tree, path, now).isPresent()) {
                return null;
            }
            InMemoryGrant granted = new InMemoryGrant(
                    store,
                    tree,
                    InMemoryHolds.Side.PATH,
                    path,
                    owner,
                    holder,
                    Instant.now(),
                    store.nextFencingToken(),
                    now + leaseNanos);
            store.holds().add(granted);
            return granted;
        }
    }

    @Override
    public void awaitChance(long deadlineNanos) throws InterruptedException {
        synchronized (store.monitor()) {
            long now = System.nanoTime();
            OptionalLong end = store.holds().firstConflictingPathEnd(tree, path, now);
            long until = end.isEmpty() ? now : end.getAsLong() - deadlineNanos < 0 ? end.getAsLong() : deadlineNanos;
            long waitNanos = until - now;
            if (waitNanos > 0) {
                // Woken by any release of any key; returning early is allowed.
                TimeUnit.NANOSECONDS.timedWait(store.monitor(), waitNanos);
            }
        }
    }

    /** Leaves nothing behind: a path's waiter keeps no place. */
    @Override
    public void close() {}
}
