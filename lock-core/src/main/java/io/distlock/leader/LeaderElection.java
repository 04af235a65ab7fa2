package io.distlock.leader;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes one instance of a group the leader: the one that holds the group's lock ({@code leader:<group>}). Every
 * instance runs an election for the group; each waits for the lock on a thread of its own, and the one that gets it
 * leads for as long as it holds it. The lease is auto-renewed by default, so a leader leads until it closes its
 * election or loses the lock, and an instance that dies frees the lock within one lease for the next.
 *
 * <pre>{@code
 * LeaderElection election = LeaderElection.builder(lock, "report-sender").listener(listener).build();
 * election.start();
 * ...
 * election.close();
 * }</pre>
 *
 * <p>The leader is told by {@link LeadershipListener#granted}; it stops leading when the lock is lost (its lease ran
 * out, which a paused instance or a store out of reach for a whole lease causes, or the store no longer has the key as
 * its own), and when the election is closed. {@link #isLeader()} turns false the moment the loss is known, which is
 * never after another instance could have taken the lock, since a lease is counted from before its command was sent;
 * then {@link LeadershipListener#revoked} is called. After a loss the instance waits for the lock again. Each term has
 * the fencing token of its lock, which rises from term to term.
 *
 * <p>A store that cannot be reached while the instance waits is tried again after a pause, from 100 ms doubling up to 5
 * s, and logged. Closing interrupts the wait, tells the listener of a running term, then releases the lock, so
 * another instance takes over without waiting for the lease.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final Lock lock;
    private final String group;
    private final Lease lease;
    private final LeadershipListener listener;

    private final ReentrantLock state = new ReentrantLock();
    private final Condition changed = state.newCondition();
    /** The thread while it waits for the lock, so that closing can interrupt the wait and nothing else. */
    private final AtomicReference<@Nullable Thread> waiting = new AtomicReference<>();

    private volatile @Nullable Leadership current;
    /** Guarded by {@link #state}. */
    private @Nullable LockHandle held;
    /** Guarded by {@link #state}. */
    private boolean lost;
    /** Guarded by {@link #state}. */
    private boolean closed;
    /** Guarded by {@link #state}. */
    private @Nullable Thread thread;

    private LeaderElection(Lock lock, String group, Lease lease, LeadershipListener listener) {
        this.lock = lock;
        this.group = group;
        this.lease = lease;
        this.listener = listener;
    }

    /**
     * Starts building an election.
     *
     * @param lock the lock whose key {@code leader:<group>} decides who leads; every instance of the group uses the
     *     same store
     * @param group the group's name, not blank
     * @return a builder
     * @throws IllegalArgumentException if {@code lock} is null or {@code group} blank
     */
    public static Builder builder(Lock lock, String group) {
        if (lock == null) {
            throw new IllegalArgumentException("lock must not be null");
        }
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("group must not be blank, but was " + group);
        }
        return new Builder(lock, group);
    }

    /**
     * Starts taking part: a daemon thread waits for the group's lock and leads while it holds it.
     *
     * @throws IllegalStateException if the election was started or closed before
     */
    public void start() {
        state.lock();
        try {
            if (closed || thread != null) {
                throw new IllegalStateException(
                        "the election of group '" + group + "' was already " + (closed ? "closed" : "started"));
            }
            Thread started = new Thread(this::run, "distlock-leader-" + group);
            started.setDaemon(true);
            thread = started;
            started.start();
        } finally {
            state.unlock();
        }
    }

    /**
     * The group this election is for.
     *
     * @return the group's name
     */
    public String group() {
        return group;
    }

    /**
     * Whether this instance leads now: false from the moment a loss is known or closing began.
     *
     * @return true while this instance holds the group's lock as leader
     */
    public boolean isLeader() {
        return current != null;
    }

    /**
     * The running term, with its fencing token for writes that must be fenced against a former leader.
     *
     * @return the term, or empty while this instance does not lead
     */
    public Optional<Leadership> leadership() {
        return Optional.ofNullable(current);
    }

    /**
     * Stops taking part: a wait for the lock ends, a running term is revoked ({@link Revocation#CLOSED}, the listener
     * told first) and the lock released. Waits up to 10 s for the listener and the release. Does nothing the second
     * time.
     */
    @Override
    public void close() {
        Thread running;
        state.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            current = null;
            changed.signalAll();
            running = thread;
        } finally {
            state.unlock();
        }
        Thread waiter = waiting.get();
        if (waiter != null) {
            waiter.interrupt();
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "LeaderElection[group=" + group + (isLeader() ? ", leading" : "") + "]";
    }

    private void run() {
        long pauseNanos = FIRST_PAUSE_NANOS;
        while (!isClosed()) {
            LockHandle handle;
            waiting.set(Thread.currentThread());
            try {
                if (isClosed()) {
                    return;
                }
                handle = lock.acquire("leader:" + group, lease);
                pauseNanos = FIRST_PAUSE_NANOS;
            } catch (InterruptedException e) {
                continue;
            } catch (LockBackendException e) {
                log.warn(
                        "The election of group '{}' cannot reach the lock's store; trying again in {} ms: {}",
                        group,
                        TimeUnit.NANOSECONDS.toMillis(pauseNanos),
                        e.getMessage());
                pause(pauseNanos);
                pauseNanos = Math.min(pauseNanos * 2, LONGEST_PAUSE_NANOS);
                continue;
            } finally {
                waiting.set(null);
                // An interrupt meant for the wait must not reach the listener.
                Thread.interrupted();
            }
            lead(handle);
        }
    }

    /** Leads for one term: until the lock is lost or the election closed. */
    private void lead(LockHandle handle) {
        Leadership term = new Leadership(group, handle.fencingToken());
        state.lock();
        try {
            if (closed) {
                release(handle);
                return;
            }
            held = handle;
            lost = false;
            current = term;
        } finally {
            state.unlock();
        }
        handle.onLost(loss -> lostTerm(handle));
        tell(() -> listener.granted(term), "granted");
        boolean wasLost;
        state.lock();
        try {
            while (!lost && !closed) {
                changed.awaitUninterruptibly();
            }
            wasLost = lost;
            held = null;
            current = null;
        } finally {
            state.unlock();
        }
        Revocation reason = wasLost ? Revocation.LOST : Revocation.CLOSED;
        tell(() -> listener.revoked(term, reason), "revoked");
        release(handle);
    }

    /** Runs on the lock's thread the moment the loss is known: leadership ends here, the listener is told after. */
    private void lostTerm(LockHandle handle) {
        state.lock();
        try {
            if (held == handle) {
                current = null;
                lost = true;
                changed.signalAll();
            }
        } finally {
            state.unlock();
        }
    }

    private void release(LockHandle handle) {
        try {
            handle.close();
        } catch (LockLostException alreadyGone) {
            log.debug("The lock of group '{}' was lost before its release: {}", group, alreadyGone.getMessage());
        } catch (LockBackendException unreachable) {
            log.warn(
                    "The lock of group '{}' could not be released; it runs out with its lease: {}",
                    group,
                    unreachable.getMessage());
        }
    }

    private void tell(Runnable call, String what) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("A leadership listener of group '{}' failed when {}", group, what, e);
        }
    }

    private boolean isClosed() {
        state.lock();
        try {
            return closed;
        } finally {
            state.unlock();
        }
    }

    /** A pause before trying an unreachable store again, which closing cuts short. */
    private void pause(long nanos) {
        state.lock();
        try {
            long left = nanos;
            while (!closed && left > 0) {
                left = changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            state.unlock();
        }
    }

    /** Builds a {@link LeaderElection}. */
    public static final class Builder {

        private final Lock lock;
        private final String group;
        private Lease lease = Lease.renewed();
        private LeadershipListener listener = new LeadershipListener() {
            @Override
            public void granted(Leadership term) {}

            @Override
            public void revoked(Leadership term, Revocation reason) {}
        };

        private Builder(Lock lock, String group) {
            this.lock = lock;
            this.group = group;
        }

        /**
         * The lease of the group's lock: auto-renewed by default, so a term lasts until the leader loses the lock or
         * closes; a fixed lease ends every term after that long, and the instances compete again.
         *
         * @param lease the lease
         * @return this builder
         * @throws IllegalArgumentException if {@code lease} is null
         */
        public Builder lease(Lease lease) {
            if (lease == null) {
                throw new IllegalArgumentException("lease must not be null");
            }
            this.lease = lease;
            return this;
        }

        /**
         * Who is told of grants and revocations; by default nobody, for an application that asks {@link
         * LeaderElection#isLeader()}.
         *
         * @param listener the listener
         * @return this builder
         * @throws IllegalArgumentException if {@code listener} is null
         */
        public Builder listener(LeadershipListener listener) {
            if (listener == null) {
                throw new IllegalArgumentException("listener must not be null");
            }
            this.listener = listener;
            return this;
        }

        /**
         * Builds the election, not started.
         *
         * @return the election
         */
        public LeaderElection build() {
            return new LeaderElection(lock, group, lease, listener);
        }
    }
}
