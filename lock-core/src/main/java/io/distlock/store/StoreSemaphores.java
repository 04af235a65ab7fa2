package io.distlock.store;

import io.distlock.Lock;
import io.distlock.Semaphores;
import io.distlock.internal.engine.LockArguments;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.LockKind;
import io.distlock.spi.HoldSettings;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The semaphores of a {@link StoreLock} whose store hands out permits: one {@link StoreLock} per permit count, over
 * the store's permits of that count, made when first asked for and closed with the lock that made them.
 */
final class StoreSemaphores implements Semaphores {

    private final LeaseStore store;
    private final HoldSettings settings;
    private final int maxCallsUnderWay;
    private final ConcurrentMap<Integer, StoreLock> byPermits = new ConcurrentHashMap<>();
    private volatile boolean closed;

    StoreSemaphores(LeaseStore store, HoldSettings settings, int maxCallsUnderWay) {
        this.store = store;
        this.settings = settings;
        this.maxCallsUnderWay = maxCallsUnderWay;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if the lock that offers these semaphores is closed
     */
    @Override
    public Lock permits(int permits) {
        LockArguments.validatePermits(permits);
        if (closed) {
            throw new IllegalStateException("the semaphores of " + store.describe() + " are closed");
        }
        return byPermits.computeIfAbsent(
                permits,
                count -> new StoreLock(
                        new PermitLeaseStore(store, count), settings, maxCallsUnderWay, LockKind.SEMAPHORE, null));
    }

    /** The holds of every semaphore handed out, for the lock's view of held locks. */
    List<HeldLock> heldLocks() {
        return byPermits.values().stream()
                .flatMap(semaphore -> semaphore.heldLocks().stream())
                .toList();
    }

    /**
     * Closes every semaphore handed out, each waiting its shutdown grace period for its permits to be released, before
     * the lock closes the store they share.
     */
    void close() {
        closed = true;
        byPermits.values().forEach(StoreLock::close);
    }
}
