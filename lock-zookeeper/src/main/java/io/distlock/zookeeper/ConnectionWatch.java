package io.distlock.zookeeper;

import io.distlock.LockLostException.Reason;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Turns connection trouble into lost leases and wakes waiters on every change of the connection.
 *
 * <p>Every state other than CONNECTED and RECONNECTED ends the holds: SUSPENDED as well as LOST. The loss is reported
 * as {@link Reason#CONNECTION_SUSPENDED} (the hold may or may not be gone), or as {@link Reason#KEY_GONE} on LOST. While suspended, the
 * client cannot tell whether its session lives; the ZooKeeper client reports the disconnection after two thirds of the
 * session timeout without an answer, and the ensemble may expire the session one third later and give the key to
 * another client, before Curator 5 would post LOST (one whole session timeout after SUSPENDED). Ending the hold on
 * SUSPENDED reports the loss before anyone else can hold the key; the price is that a short disconnection also costs
 * the holds. READ_ONLY ends them too, as nothing can be written to keep or release them.
 */
final class ConnectionWatch implements ConnectionStateListener {

    private final Set<ZooKeeperLease> held = ConcurrentHashMap.newKeySet();
    private final Set<Runnable> waiters = ConcurrentHashMap.newKeySet();
    private final AtomicLong troubles = new AtomicLong();

    @Override
    public void stateChanged(CuratorFramework client, ConnectionState state) {
        if (state != ConnectionState.CONNECTED && state != ConnectionState.RECONNECTED) {
            troubles.incrementAndGet();
            // LOST: Curator counts the session as expired, and its nodes with it. Otherwise nobody can tell yet.
            Reason reason = state == ConnectionState.LOST ? Reason.KEY_GONE : Reason.CONNECTION_SUSPENDED;
            for (ZooKeeperLease lease : held) {
                lease.connectionLost(reason);
            }
        }
        for (Runnable waiter : waiters) {
            waiter.run();
        }
    }

    /** A count of connection troubles so far, to pass to {@link #hold} for a lease being granted. */
    long troubles() {
        return troubles.get();
    }

    /**
     * Watches a granted lease; if the connection had trouble since {@code troublesBefore} (before the grant was asked),
     * the lease is lost at once, as the listener may have run before the lease was known.
     */
    void hold(ZooKeeperLease lease, long troublesBefore) {
        held.add(lease);
        if (troubles.get() != troublesBefore) {
            lease.connectionLost(Reason.CONNECTION_SUSPENDED);
        }
    }

    void forget(ZooKeeperLease lease) {
        held.remove(lease);
    }

    void addWaiter(Runnable wake) {
        waiters.add(wake);
    }

    void removeWaiter(Runnable wake) {
        waiters.remove(wake);
    }
}
