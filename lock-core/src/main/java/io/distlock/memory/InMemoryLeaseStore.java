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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LeaseStore} in this JVM's memory, for tests and local runs: the locks of one process exclude each other,
 * never those of another process. Wrapped in a {@link StoreLock} it keeps every promise of {@link io.distlock.Lock}
 * within the JVM: leases that run out (on the JVM's monotonic clock, which is this store's clock), fencing tokens,
 * release and extension by the owner only, and loss reported to a holder whose lease ran out. Waiters get a free key
 * in the order they came, so the lock is also its own fair lock ({@link io.distlock.Kind#FAIR}).
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

    private final Object monitor = new Object();
    /** The keys granted and not released; a lease that ran out stays until its key is next touched. */
    private final Map<String, Grant> grants = new HashMap<>();
    /**
     * The acquisitions waiting for each key, in the order of their first refused attempt: a free key goes to the first
     * of them, so that waiters are served in the order they came.
     */
    private final Map<String, Deque<Object>> queues = new HashMap<>();
    /** Tokens rise across all keys, so they rise on each. */
    private long lastFencingToken;

    /** Creates an empty store. */
    public InMemoryLeaseStore() {}

    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        return begin(key, owner, null, lease);
    }

    /**
     * {@inheritDoc} The time of the grant is this JVM's wall clock, for display only: leases run on its monotonic
     * clock.
     */
    @Override
    public Acquisition begin(String key, String owner, @Nullable String holder, Duration lease) {
        long leaseNanos = lease.toNanos();
        Object place = new Object();
        return new Acquisition() {
            @Override
            public @Nullable StoreLease tryTake() {
                synchronized (monitor) {
                    long now = System.nanoTime();
                    Grant current = grants.get(key);
                    Deque<Object> queue = queues.get(key);
                    boolean ahead = queue != null && queue.peekFirst() != place;
                    if ((current != null && current.liveAt(now)) || ahead) {
                        if (queue == null) {
                            queue = new ArrayDeque<>();
                            queues.put(key, queue);
                        }
                        if (!queue.contains(place)) {
                            queue.addLast(place);
                        }
                        return null;
                    }
                    if (leave(key, place) && queues.containsKey(key)) {
                        // The next in line is first now: it waits for this grant's lease instead of a release.
                        monitor.notifyAll();
                    }
                    Grant granted = new Grant(key, owner, holder, Instant.now(), ++lastFencingToken, now + leaseNanos);
                    grants.put(key, granted);
                    return granted;
                }
            }

            @Override
            public void awaitChance(long deadlineNanos) throws InterruptedException {
                synchronized (monitor) {
                    long now = System.nanoTime();
                    Grant current = grants.get(key);
                    Deque<Object> queue = queues.get(key);
                    long until;
                    if (queue != null && queue.peekFirst() != place) {
                        // Not first: woken when the line moves or the key is released.
                        until = deadlineNanos;
                    } else if (current == null || !current.liveAt(now)) {
                        until = now;
                    } else {
                        until = Math.min(deadlineNanos, current.expiresAtNanos);
                    }
                    long waitNanos = until - now;
                    if (waitNanos > 0) {
                        // Woken by any release of any key; returning early is allowed.
                        TimeUnit.NANOSECONDS.timedWait(monitor, waitNanos);
                    }
                }
            }

            /** Gives up its place in the key's queue, so that the one behind it is first. */
            @Override
            public void close() {
                synchronized (monitor) {
                    if (leave(key, place)) {
                        monitor.notifyAll();
                    }
                }
            }
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

    /** Takes a place out of its key's queue, under the monitor; true if it was there. */
    private boolean leave(String key, Object place) {
        Deque<Object> queue = queues.get(key);
        if (queue == null || !queue.remove(place)) {
            return false;
        }
        if (queue.isEmpty()) {
            queues.remove(key);
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
            Grant current = grants.get(key);
            if (current == null || !current.liveAt(now)) {
                grants.remove(key);
                return Optional.empty();
            }
            Duration remaining = Duration.ofNanos(current.expiresAtNanos - now);
            return Optional.of(
                    current.holder == null
                            ? new LeaseReading(remaining, null, null)
                            : new LeaseReading(remaining, current.holder, current.since));
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
            Grant removed = grants.remove(key);
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
            Deque<Object> queue = queues.get(key);
            return queue == null ? 0 : queue.size();
        }
    }

    /** {@inheritDoc} The holder hears of it at once, through its grant's {@code whenGone} callback. */
    @Override
    public boolean releaseForOperator(String key, long fencingToken) {
        Grant freed;
        synchronized (monitor) {
            Grant current = grants.get(key);
            if (current == null || current.fencingToken != fencingToken || !current.liveAt(System.nanoTime())) {
                return false;
            }
            grants.remove(key);
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

    /** One owner's hold on a key, until {@link #expiresAtNanos} unless extended. */
    private final class Grant implements StoreLease {

        private final String key;
        private final String owner;
        private final @Nullable String holder;
        private final Instant since;
        private final long fencingToken;
        /** Guarded by {@link #monitor}. */
        private long expiresAtNanos;
        /** Guarded by {@link #monitor}; null once told, or until registered. */
        private @Nullable Consumer<LockLostException.Reason> whenGone;

        private LockLostException.@Nullable Reason goneFor;

        Grant(
                String key,
                String owner,
                @Nullable String holder,
                Instant since,
                long fencingToken,
                long expiresAtNanos) {
            this.key = key;
            this.owner = owner;
            this.holder = holder;
            this.since = since;
            this.fencingToken = fencingToken;
            this.expiresAtNanos = expiresAtNanos;
        }

        boolean liveAt(long nowNanos) {
            return expiresAtNanos - nowNanos > 0;
        }

        /** Whether this grant is still the key's and its lease has not run out; guarded by {@link #monitor}. */
        private boolean isCurrent(long nowNanos) {
            return grants.get(key) == this && liveAt(nowNanos);
        }

        @Override
        public long fencingToken() {
            return fencingToken;
        }

        @Override
        public boolean extend(Duration lease) {
            synchronized (monitor) {
                long now = System.nanoTime();
                if (!isCurrent(now)) {
                    return false;
                }
                expiresAtNanos = now + lease.toNanos();
                // Waiters sleep until the end they saw; a shortened lease must wake them to see the new one.
                monitor.notifyAll();
                return true;
            }
        }

        /** The grant is current while the key has it and its lease has not run out on this JVM's clock. */
        @Override
        public Optional<LockLostException.Reason> checkOwned() {
            synchronized (monitor) {
                if (isCurrent(System.nanoTime())) {
                    return Optional.empty();
                }
                return Optional.of(goneFor != null ? goneFor : LockLostException.Reason.KEY_GONE);
            }
        }

        @Override
        public boolean release() {
            synchronized (monitor) {
                boolean held = isCurrent(System.nanoTime());
                if (grants.get(key) == this) {
                    grants.remove(key);
                    monitor.notifyAll();
                }
                return held;
            }
        }

        @Override
        public void whenGone(Consumer<LockLostException.Reason> gone) {
            LockLostException.Reason already;
            synchronized (monitor) {
                already = goneFor;
                if (already == null) {
                    whenGone = gone;
                }
            }
            if (already != null) {
                gone.accept(already);
            }
        }

        /** Tells the holder, once, that an operator freed its key. */
        void gone(LockLostException.Reason reason) {
            Consumer<LockLostException.Reason> told;
            synchronized (monitor) {
                goneFor = reason;
                told = whenGone;
                whenGone = null;
            }
            if (told != null) {
                told.accept(reason);
            }
        }

        @Override
        public String toString() {
            return "Grant[" + key + ", owner " + owner + ", token " + fencingToken + "]";
        }
    }
}
