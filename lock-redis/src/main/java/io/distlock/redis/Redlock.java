package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.internal.engine.InspectedLock;
import io.distlock.monitor.BackendState;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * A {@link Lock} over an odd number (at least 3) of independent Redis masters, following the Redlock algorithm: a lock
 * is held only while a majority of the nodes hold it, so it survives the loss of any minority of them.
 *
 * <p>It keeps every promise of {@link Lock} and {@link LockHandle}, with these differences:
 *
 * <ul>
 *   <li><b>Acquiring</b> sends the acquire script to every node at once, without a thread per node. It holds when a
 *       majority granted it within the lease minus a clock-drift allowance ({@code lease * clockDriftFactor + 2 ms});
 *       otherwise it is released on every node at once and, for a waiting call, tried again when a holder releases,
 *       its lease ends on enough nodes, or, after a split vote, after a random delay of a few milliseconds. A waiting
 *       call honours its wait exactly like {@link RedisLock}.
 *   <li><b>Split votes</b> are settled within the attempt, also with no wait: callers that try a free key at the same
 *       moment and split the nodes among them get exactly one winner. Each attempt is ranked by a digest of its owner
 *       token, which the refusing nodes name; an attempt refused only for lower-ranked contenders keeps its grants and
 *       asks their nodes again for up to 500 ms (at most half the command timeout), while the others release theirs.
 *       Ranks decide only who releases, never who a node grants to, so two callers never hold the key at once. When a
 *       node is down, an owner's majority may include it and look like a split: a try then takes up to that long to
 *       report "not acquired".
 *   <li><b>Leases</b> count from the moment the first command was sent, minus the drift allowance: {@link
 *       LockHandle#isLost()} turns true before a majority of the nodes can let the key go. Renewals, extensions,
 *       checks and releases go to every node and hold while a majority confirms; when fewer than a majority can still
 *       confirm, the hold is lost ({@link io.distlock.LockLostException}); when the nodes that failed to answer decide
 *       it, {@link io.distlock.LockBackendException} says how many answered.
 *   <li><b>Releasing</b> goes to every node, also those that did not answer the acquisition. A node that is down then
 *       keeps its copy of the key until the lease ends, which blocks nobody, since the others make a majority.
 *   <li><b>Fencing tokens</b> are the highest of the granting majority's counters; before a token is handed out, every
 *       node of that majority whose counter is lower is raised to it while it still holds the key (one more round trip,
 *       only when the counters differ). Any two majorities share a node, so each token is greater than every token
 *       handed out before, <em>as long as no node loses its data</em>: a node restarted without persistence forgets
 *       its counters and its locks, and tokens may then repeat.
 *   <li><b>Restarts</b>: run every node with {@code appendonly yes} and {@code appendfsync always}, or keep a node that
 *       stopped down for at least the longest lease before starting it again (a delayed restart). A node restarted at
 *       once without its data can give a second owner a majority while the first still holds the lock.
 *   <li>A release hands the key straight to a waiting thread of the same instance, as {@link RedisLock} does, on every
 *       node at once; the handover counts like a grant: on a majority, with its fencing token settled, within the
 *       receiver's lease minus the drift allowance. If it cannot count, the receiver's copies are released again and
 *       {@link LockHandle#release()} throws {@link io.distlock.LockBackendException}; the waiter then tries on its own.
 * </ul>
 *
 * <p>Create it with {@link #builder(List)}. Each node needs its own {@link
 * org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory} on a standalone Redis 6.2 or newer;
 * the nodes must be independent masters, not replicas of each other or members of one cluster.
 */
public final class Redlock extends InspectedLock implements Lock, ClosingLifecycle, InspectableLock {

    private final RedisLock lock;
    private final int nodes;
    private final int quorum;
    private final double clockDriftFactor;

    Redlock(RedisLock lock, int nodes, int quorum, double clockDriftFactor) {
        super(lock);
        this.lock = lock;
        this.nodes = nodes;
        this.quorum = quorum;
        this.clockDriftFactor = clockDriftFactor;
    }

    /**
     * Starts building a Redlock over these nodes.
     *
     * @param nodes one Lettuce connection factory per Redis master, an odd number and at least 3
     * @return the builder
     * @throws IllegalArgumentException if the list is null, has an even number of nodes or fewer than 3, contains a
     *     null, a factory that is not Lettuce's, a cluster client, or the same server twice
     */
    public static RedlockBuilder builder(List<? extends RedisConnectionFactory> nodes) {
        return new RedlockBuilder(nodes);
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        return lock.tryAcquire(key, lease);
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
        return lock.tryAcquire(key, lease, wait);
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        return lock.acquire(key, lease);
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        return lock.asJavaLock(key, lease);
    }

    /**
     * How many Redis nodes the lock runs on.
     *
     * @return the number of nodes
     */
    public int nodes() {
        return nodes;
    }

    /**
     * How many nodes must confirm a grant, a renewal or a release: a majority.
     *
     * @return the quorum
     */
    public int quorum() {
        return quorum;
    }

    /**
     * The share of a lease that is allowed for clocks that run at different speeds, on top of 2 ms.
     *
     * @return the clock drift factor
     */
    public double clockDriftFactor() {
        return clockDriftFactor;
    }

    /**
     * The prefix put before every key on every node.
     *
     * @return the key prefix
     */
    public String keyPrefix() {
        return lock.keyPrefix();
    }

    /**
     * The lease of auto-renewed acquisitions.
     *
     * @return the watchdog lease
     */
    public Duration watchdogLease() {
        return lock.watchdogLease();
    }

    /**
     * How often auto-renewed leases are renewed.
     *
     * @return the renew interval
     */
    public Duration renewInterval() {
        return lock.renewInterval();
    }

    /**
     * How long {@link #close()} keeps renewing and waits for held locks to be released before it reports them lost.
     *
     * @return the shutdown grace period
     */
    public Duration shutdownGracePeriod() {
        return lock.shutdownGracePeriod();
    }

    /**
     * Shuts the lock down gracefully, like {@link RedisLock#close()}, and closes the release subscription of every
     * node.
     */
    @Override
    public void close() {
        lock.close();
    }

    @Override
    public boolean isRunning() {
        return lock.isRunning();
    }

    /**
     * Not available: each node keeps its own copy of a key, and only a majority decides who holds it.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public KeyState keyState(String key) {
        return super.keyState(key);
    }

    /** The server is reachable when a majority of the nodes answered the probe script within the command timeout. */
    @Override
    public BackendState checkBackend() {
        return super.checkBackend();
    }

    @Override
    public String toString() {
        return lock.toString();
    }
}
