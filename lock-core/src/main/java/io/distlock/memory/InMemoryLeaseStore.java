package io.distlock.memory;

import io.distlock.LockLostException;
import io.distlock.store.LeaseReading;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LeaseStore} in this JVM's memory, for tests and local runs: the locks of one process exclude each other,
 * never those of another process. Wrapped in a {@link StoreLock} it keeps every promise of {@link io.distlock.Lock}
 * within the JVM: leases that run out (on the JVM's monotonic clock, which is this store's clock), fencing tokens,
 * release and extension by the owner only, and loss reported to a holder whose lease ran out. Waiters get a free key
 * in the order they came, so the lock is also its own fair lock ({@link io.distlock.Kind#FAIR}). It hands out the
 * permits of semaphores ({@link io.distlock.Kind#SEMAPHORE}) too, to waiters in the order they came, and shares keys
 * between readers ({@link io.distlock.Kind#READ}): readers hold a key together while no writer holds it or waits for
 * it, and a writer, who waits in the key's line, takes it once the last reader left.
 *
 * <pre>{@code
 * Lock lock = StoreLock.builder(new InMemoryLeaseStore()).build();
 * }</pre>
 *
 * <p>Several {@link StoreLock}s over one store behave like clients of one server. Closing the store, or a lock over
 * it, frees nothing: keys run out with their leases. A key whose holder never released it takes memory until its key
 * is taken again or asked about.
 */
public final class InMemoryLeaseStore implements LeaseStore {

    /** The line of a key's readers, who wait beside each other rather than in a queue. */
    private static final int READ = -1;

    private final Object monitor = new Object();
    /** Guarded by the monitor. */
    private final InMemoryHolds holds = new InMemoryHolds();
    /**
     * The acquisitions waiting for each key or semaphore key, in the order of their first refused attempt: a free key
     * or permit goes to the first of them, so that waiters are served in the order they came. A key's line holds its
     * waiting writers, who keep new readers out.
     */
    private final Map<Line, Deque<Object>> queues = new HashMap<>();
    /** Tokens rise across all keys, so they rise on each. */
    private long lastFencingToken;

    /** Creates an empty store. */
    public InMemoryLeaseStore() {}

    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        return new Waiting(new Line(key, 0), owner, null, lease);
    }

    /**
     * {@inheritDoc} The time of the grant is this JVM's wall clock, for display only: leases run on its monotonic
     * clock.
     */
    @Override
    public Acquisition begin(String key, String owner, @Nullable String holder, Duration lease) {
        return new Waiting(new Line(key, 0), owner, holder, lease);
    }

    /** {@inheritDoc} Waiters take a permit in the order they came. */
    @Override
    public Acquisition beginPermit(String key, int permits, String owner, String holder, Duration lease) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, but was " + permits);
        }
        return new Waiting(new Line(key, permits), owner, holder, lease);
    }

    /**
     * @return true
     */
    @Override
    public boolean offersPermits() {
        return true;
    }

    /** {@inheritDoc} Readers do not queue: all that wait take the key together once no writer holds or waits for it. */
    @Override
    public Acquisition beginRead(String key, String owner, String holder, Duration lease) {
        return new Waiting(new Line(key, READ), owner, holder, lease);
    }

    /**
     * @return true
     */
    @Override
    public boolean offersReaders() {
        return true;
    }

    /**
     * {@inheritDoc} Paths do not queue: every waiter tries again at each release, or when the first conflicting lease
     * ends. An acquisition compares its path with every path held in its tree.
     */
    @Override
    public Acquisition beginPath(String tree, List<String> segments, String owner, String holder, Duration lease) {
        return new InMemoryPathAcquisition(this, tree, segments, owner, holder, lease);
    }

    /**
     * @return true
     */
    @Override
    public boolean offersPaths() {
        return true;
    }

    /** One acquisition of a key, for writing or reading, or of one of a semaphore key's permits, waiting in its line. */
    private final class Waiting implements Acquisition {

        private final Line line;
        private final String owner;
        private final @Nullable String holder;
        private final long leaseNanos;
        private final Object place = new Object();

        Waiting(Line line, String owner, @Nullable String holder, Duration lease) {
            this.line = line;
            this.owner = owner;
            this.holder = holder;
            this.leaseNanos = lease.toNanos();
        }

        @Override
        public @Nullable StoreLease tryTake() {
            synchronized (monitor) {
                long now = System.nanoTime();
                Deque<Object> queue = queues.get(line);
                boolean ahead = queue != null && queue.peekFirst() != place;
                if (taken(line, now) || ahead) {
                    if (line.permits() == READ) {
                        return null;
                    }
                    if (queue == null) {
                        queue = new ArrayDeque<>();
                        queues.put(line, queue);
                    }
                    if (!queue.contains(place)) {
                        queue.addLast(place);
                    }
                    return null;
                }
                if (leave(line, place)) {
                    // The next in line is first now, and readers behind an emptied line of writers see the grant: each
                    // waits for this grant's lease instead of a release.
                    monitor.notifyAll();
                }
                InMemoryGrant granted = new InMemoryGrant(
                        InMemoryLeaseStore.this,
                        line.key(),
                        line.side(),
                        List.of(),
                        owner,
                        holder,
                        Instant.now(),
                        nextFencingToken(),
                        now + leaseNanos);
                holds.add(granted);
                return granted;
            }
        }

        @Override
        public void awaitChance(long deadlineNanos) throws InterruptedException {
            synchronized (monitor) {
                long now = System.nanoTime();
                Deque<Object> queue = queues.get(line);
                long until;
                if (queue != null && queue.peekFirst() != place) {
                    // Not first: woken when the line moves or a key is released.
                    until = deadlineNanos;
                } else if (!taken(line, now)) {
                    until = now;
                } else if (line.permits() == READ && queues.containsKey(new Line(line.key(), 0))) {
                    // Behind a waiting writer: woken when it gives up or releases.
                    until = deadlineNanos;
                } else {
                    long end = holds.firstLeaseEnd(line.side(), line.key(), now);
                    until = end - deadlineNanos < 0 ? end : deadlineNanos;
                }
                long waitNanos = until - now;
                if (waitNanos > 0) {
                    // Woken by any release of any key; returning early is allowed.
                    TimeUnit.NANOSECONDS.timedWait(monitor, waitNanos);
                }
            }
        }

        /** Gives up its place in the line, so that the one behind it is first. */
        @Override
        public void close() {
            synchronized (monitor) {
                if (leave(line, place)) {
                    monitor.notifyAll();
                }
            }
        }
    }

    /**
     * Whether the line's key is taken, under the monitor: for a writer while its grant or a reader's is live, for a
     * reader while a writer's grant is live or a writer waits, and a semaphore key while as many permits as the line's
     * count, or more, are live. Reads and permits whose lease ran out are dropped here.
     */
    private boolean taken(Line line, long now) {
        String key = line.key();
        return switch (line.side()) {
            case KEY -> holds.heldExclusively(key, now) || holds.shared(InMemoryHolds.Side.READ, key, now) > 0;
            case READ -> holds.heldExclusively(key, now) || queues.containsKey(new Line(key, 0));
            case PERMIT -> holds.shared(InMemoryHolds.Side.PERMIT, key, now) >= line.permits();
            case PATH -> throw new IllegalStateException("paths wait in no line");
        };
    }

    /**
     * {@inheritDoc}
     *
     * @return true: a free key goes to the acquisition that waited longest
     */
    @Override
    public boolean servesWaitersInArrivalOrder() {
        return true;
    }

    /** Takes a place out of its line, under the monitor; true if it was there. */
    private boolean leave(Line line, Object place) {
        Deque<Object> queue = queues.get(line);
        if (queue == null || !queue.remove(place)) {
            return false;
        }
        if (queue.isEmpty()) {
            queues.remove(line);
        }
        return true;
    }

    @Override
    public Optional<Duration> remainingLease(String key) {
        return readLease(key).map(LeaseReading::remaining);
    }

    @Override
    public Optional<LeaseReading> readLease(String key) {
        synchronized (monitor) {
            long now = System.nanoTime();
            InMemoryGrant current = holds.exclusive(key);
            if (current == null || !current.liveAt(now)) {
                holds.removeExclusive(key);
                return Optional.empty();
            }
            Duration remaining = Duration.ofNanos(current.expiresAtNanos() - now);
            return Optional.of(
                    current.holder() == null
                            ? new LeaseReading(remaining, null, null)
                            : new LeaseReading(remaining, current.holder(), current.since()));
        }
    }

    /**
     * Removes a key whatever owns it, as an operator's delete in a real store would: its holder is not told, and learns
     * of the loss when it next asks the store (a renewal, an extension, a release or a nested acquisition); waiters may
     * take the key at once. For tests of lost locks.
     *
     * @param key the key
     * @return true if a grant whose lease had not run out was removed
     */
    public boolean remove(String key) {
        synchronized (monitor) {
            InMemoryGrant removed = holds.removeExclusive(key);
            monitor.notifyAll();
            return removed != null && removed.liveAt(System.nanoTime());
        }
    }

    /**
     * How many acquisitions wait in line for a key: each joins at its first refused attempt and leaves when it takes the
     * key or ends. For tests that start waiters in a known order.
     *
     * @param key the key
     * @return the number of waiting acquisitions
     */
    public int waiting(String key) {
        synchronized (monitor) {
            Deque<Object> queue = queues.get(new Line(key, 0));
            return queue == null ? 0 : queue.size();
        }
    }

    /** {@inheritDoc} The holder hears of it at once, through its grant's {@code whenGone} callback. */
    @Override
    public boolean releaseForOperator(String key, long fencingToken) {
        InMemoryGrant freed;
        synchronized (monitor) {
            InMemoryGrant current = holds.exclusive(key);
            if (current == null || current.fencingToken() != fencingToken || !current.liveAt(System.nanoTime())) {
                return false;
            }
            holds.removeExclusive(key);
            monitor.notifyAll();
            freed = current;
        }
        freed.gone(LockLostException.Reason.RELEASED_BY_OPERATOR);
        return true;
    }

    @Override
    public void ping() {
        // Always reachable.
    }

    @Override
    public String describe() {
        return "in-memory (this JVM only)";
    }

    /** Does nothing: the locks over this store may still use it, and held keys run out with their leases. */
    @Override
    public void close() {}

    /** The monitor that guards every grant and line of this store. */
    Object monitor() {
        return monitor;
    }

    /** What the store has granted, under the monitor. */
    InMemoryHolds holds() {
        return holds;
    }

    /** The next fencing token, under the monitor. */
    long nextFencingToken() {
        return ++lastFencingToken;
    }

    /** Whether a grant is still its key's, one of its readers or one of its semaphore key's permits, under the monitor. */
    boolean isHeld(InMemoryGrant grant) {
        return holds.has(grant);
    }

    /** Takes a grant away from its key, under the monitor, and wakes the waiters. */
    void drop(InMemoryGrant grant) {
        holds.remove(grant);
        monitor.notifyAll();
    }

    /**
     * Where acquisitions of one key wait: the key itself ({@code permits} 0) for writers, its readers ({@link #READ}),
     * or a semaphore key of that many permits. Every count of a semaphore key has its own line, since callers of
     * different counts are served each by their own.
     */
    private record Line(String key, int permits) {

        InMemoryHolds.Side side() {
            return permits == 0
                    ? InMemoryHolds.Side.KEY
                    : permits == READ ? InMemoryHolds.Side.READ : InMemoryHolds.Side.PERMIT;
        }
    }
}
