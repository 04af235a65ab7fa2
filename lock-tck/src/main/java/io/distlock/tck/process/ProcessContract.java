package io.distlock.tck.process;

import static io.distlock.tck.process.ProcessTimes.ACQUIRE_WAIT;
import static io.distlock.tck.process.ProcessTimes.EARLY_MARGIN;
import static io.distlock.tck.process.ProcessTimes.FIXED_LEASE;
import static io.distlock.tck.process.ProcessTimes.LATE_SLACK;
import static io.distlock.tck.process.ProcessTimes.LONG_LEASE;
import static io.distlock.tck.process.ProcessTimes.RENEW_INTERVAL;
import static io.distlock.tck.process.ProcessTimes.WATCHDOG_LEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import io.distlock.spi.InstanceNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link Lock} promises across real processes, as a suite that a backend's test extends:
 *
 * <ul>
 *   <li><b>A dead holder never releases, and its lease alone frees the key</b>: a {@link HolderChild} JVM killed with
 *       {@code SIGKILL} while it holds a key, with a fixed lease or an auto-renewed one, leaves the key taken until
 *       about one lease has passed, and the test JVM gets it then: not noticeably sooner, not noticeably later.
 *   <li><b>Who holds a key, across processes</b>: the test JVM, asking how a key that a {@link HolderChild} holds
 *       stands, hears the child's instance name.
 *   <li><b>Exclusion across processes</b>: several {@link CounterChild} JVMs each increment a shared counter file a
 *       number of times by reading it, pausing and writing it back, under the lock, and no increment is lost; the
 *       same workload without the lock loses some, which shows that the case can fail.
 * </ul>
 *
 * <p>The backend's test names its {@link ProcessLockFactory}, which builds the lock in every child and in the test
 * JVM, and the address of a store it started. Each child prints a ready line once connected; the cases wait for it up
 * to {@link ChildJvm#LINE_WAIT}, as long as a loaded machine may take to start a JVM, and measure what they assert
 * from the moment it arrived or from the kill, never from the start of a process. The time bounds hold on a machine of
 * two cores busy with a whole build and still fail a lock that lets a dead holder's key go at its death or too soon,
 * that never lets it go, or that keeps a fixed lease twice as long.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // a backstop far above the bounded waits of a case
public abstract class ProcessContract {

    private static final int COUNTING_CHILDREN = 3;
    private static final int INCREMENTS_EACH = 20;
    private static final int INCREMENTS = COUNTING_CHILDREN * INCREMENTS_EACH;

    /** How long a live holder's key must stay taken before the kill: without renewals, its first lease would end. */
    private static final Duration ACROSS_RENEWALS = WATCHDOG_LEASE.multipliedBy(2);

    private static final Duration PROBE_INTERVAL = Duration.ofMillis(250);

    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private final List<ChildJvm> children = new ArrayList<>();
    private final List<OpenedLock> locks = new ArrayList<>();
    private String key = "";

    /** For subclasses, which name the factory and the store. */
    protected ProcessContract() {}

    /**
     * The backend's factory, which every child JVM finds on the class path of the test JVM.
     *
     * @return the factory's class
     */
    protected abstract Class<? extends ProcessLockFactory> lockFactory();

    /**
     * Where the store is, as the {@link #lockFactory()} takes it: a store that the subclass started and that lives
     * for the whole test class.
     *
     * @return the address
     */
    protected abstract String storeAddress();

    @BeforeEach
    void nameKey(TestInfo test) {
        key = "process-contract:" + test.getTestMethod().orElseThrow().getName() + ":" + UUID.randomUUID();
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        children.forEach(ChildJvm::close);
        waiters.shutdownNow();
        assertThat(waiters.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        locks.forEach(OpenedLock::close);
    }

    /** A holder killed within its fixed lease leaves its key taken until the lease ends, and no longer. */
    @Test
    void killedHoldersFixedLeaseFreesTheKeyWithinOneLease() throws Exception {
        ChildJvm holder = started(HolderChild.start(lockFactory(), storeAddress(), key, Lease.fixed(FIXED_LEASE)));
        Lock next = connectedLock();
        ChildLine held = holder.awaitLine(HolderChild.HELD);

        // Killed at once: a key taken before the lower bound below, at the death or because the holder never held
        // it, fails the case.
        Future<Long> taken = waitForTheKey(next);
        long killed = System.nanoTime();
        holder.kill();
        Duration freedAfter =
                Duration.ofNanos(taken.get(ACQUIRE_WAIT.toSeconds() + 30, TimeUnit.SECONDS) - held.receivedNanos());

        System.out.printf(
                "%s: a holder of a fixed %d ms lease killed %d ms after it held the key; taken by the test JVM %d ms"
                        + " after it held it%n",
                getClass().getSimpleName(),
                FIXED_LEASE.toMillis(),
                Duration.ofNanos(killed - held.receivedNanos()).toMillis(),
                freedAfter.toMillis());
        // Killed long before the lower bound, or a key freed at the death could not be told from one freed in time.
        assertThat(Duration.ofNanos(killed - held.receivedNanos()))
                .isLessThan(FIXED_LEASE.minus(EARLY_MARGIN).dividedBy(2));
        assertThat(freedAfter).isBetween(FIXED_LEASE.minus(EARLY_MARGIN), FIXED_LEASE.plus(LATE_SLACK));
    }

    /**
     * A holder whose watchdog kept its key across renewals is killed: the key stays taken until the last renewal's
     * watchdog lease ends, and no longer.
     */
    @Test
    void killedHoldersRenewedLeaseFreesTheKeyWithinOneWatchdogLease() throws Exception {
        ChildJvm holder = started(HolderChild.start(lockFactory(), storeAddress(), key, Lease.renewed()));
        Lock next = connectedLock();
        holder.awaitLine(HolderChild.HELD);
        await("the key of a live holder, across renewals")
                .during(ACROSS_RENEWALS)
                .atMost(ACROSS_RENEWALS.plus(ACQUIRE_WAIT))
                .pollInterval(PROBE_INTERVAL)
                .until(() -> isTakenByAnother(next));

        Future<Long> taken = waitForTheKey(next);
        long killed = System.nanoTime();
        holder.kill();
        Duration freedAfter = Duration.ofNanos(taken.get(ACQUIRE_WAIT.toSeconds() + 30, TimeUnit.SECONDS) - killed);

        System.out.printf(
                "%s: a holder renewing a %d ms watchdog lease killed; the key taken by the test JVM %d ms after the"
                        + " kill%n",
                getClass().getSimpleName(), WATCHDOG_LEASE.toMillis(), freedAfter.toMillis());
        // The last renewal came at most a renewal interval before the kill.
        assertThat(freedAfter)
                .isBetween(WATCHDOG_LEASE.minus(RENEW_INTERVAL).minus(EARLY_MARGIN), WATCHDOG_LEASE.plus(LATE_SLACK));
    }

    /**
     * Another process that asks how a held key stands hears which process holds it (by default the holder's process id
     * and host) and since when.
     */
    @Test
    void anotherProcessHearsWhichProcessHoldsTheKey() throws Exception {
        ChildJvm holder = started(HolderChild.start(lockFactory(), storeAddress(), key, LONG_LEASE));
        Lock observer = connectedLock();
        holder.awaitLine(HolderChild.HELD);
        assumeTrue(observer instanceof InspectableLock, "the lock cannot be inspected");

        KeyState state = ((InspectableLock) observer).keyState(key);

        assertThat(state.held()).isTrue();
        assertThat(state.heldByThisInstance()).isFalse();
        assertThat(state.holder()).isEqualTo(InstanceNames.ofThisProcess(Long.toString(holder.pid())));
        assertThat(state.heldSince()).isNotNull();
    }

    /** Read-pause-write increments of several processes, each under the lock, add up. */
    @Test
    void lockedIncrementsOfSeveralProcessesLoseNoUpdate(@TempDir Path directory) throws Exception {
        CounterFile counter = CounterFile.create(directory.resolve("counter"));

        countInChildren(counter, CounterChild.Mode.LOCKED);

        assertThat(counter.read()).isEqualTo(INCREMENTS);
    }

    /** The control: the same increments without the lock lose some, so the locked case can fail. */
    @Test
    void incrementsOfSeveralProcessesWithoutTheLockLoseUpdates(@TempDir Path directory) throws Exception {
        CounterFile counter = CounterFile.create(directory.resolve("counter"));

        countInChildren(counter, CounterChild.Mode.UNLOCKED);

        assertThat(counter.read()).isLessThan(INCREMENTS);
    }

    /** Starts the counting children, starts them counting once all are ready, and waits for their counts. */
    private void countInChildren(CounterFile counter, CounterChild.Mode mode) throws Exception {
        List<ChildJvm> counting = new ArrayList<>();
        for (int i = 0; i < COUNTING_CHILDREN; i++) {
            counting.add(started(
                    CounterChild.start(lockFactory(), storeAddress(), key, counter.file(), INCREMENTS_EACH, mode)));
        }
        for (ChildJvm child : counting) {
            child.awaitLine(CounterChild.READY);
        }
        long go = System.nanoTime();
        counting.forEach(child -> child.send(CounterChild.GO));
        for (ChildJvm child : counting) {
            assertThat(child.awaitLine(CounterChild.DONE).text()).isEqualTo(CounterChild.DONE + " " + INCREMENTS_EACH);
            assertThat(child.awaitExit()).as("exit status of %s", child).isZero();
        }
        System.out.printf(
                "%s: %d processes x %d read-pause-write increments %s the lock, in %d ms: counted %d%n",
                getClass().getSimpleName(),
                COUNTING_CHILDREN,
                INCREMENTS_EACH,
                mode == CounterChild.Mode.LOCKED ? "under" : "without",
                Duration.ofNanos(System.nanoTime() - go).toMillis(),
                counter.read());
    }

    /** A lock of the test JVM, connected: what it times never includes connecting. */
    private Lock connectedLock() throws InterruptedException {
        OpenedLock opened = Factories.open(lockFactory().getName(), storeAddress(), WATCHDOG_LEASE);
        locks.add(opened);
        opened.lock()
                .tryAcquire(key + ":connect", LONG_LEASE, ACQUIRE_WAIT)
                .orElseThrow(() -> new AssertionError("a fresh key stayed taken for " + ACQUIRE_WAIT))
                .release();
        return opened.lock();
    }

    private ChildJvm started(ChildJvm child) {
        children.add(child);
        return child;
    }

    /**
     * Tells that another owner holds the key, or fails at once: a probe that got the key holds it, and would find it
     * taken the next time.
     */
    private boolean isTakenByAnother(Lock probe) {
        assertThat(probe.tryAcquire(key, LONG_LEASE))
                .as("the key of a live holder")
                .isEmpty();
        return true;
    }

    /** Waits on another thread for the key; the future gives when it was taken, by {@link System#nanoTime()}. */
    private Future<Long> waitForTheKey(Lock waiter) {
        return waiters.submit(() -> {
            Optional<LockHandle> taken = waiter.tryAcquire(key, LONG_LEASE, ACQUIRE_WAIT);
            long takenAt = System.nanoTime();
            assertThat(taken)
                    .as("the key, %s after its holder was killed", ACQUIRE_WAIT)
                    .isPresent();
            taken.get().release();
            return takenAt;
        });
    }
}
