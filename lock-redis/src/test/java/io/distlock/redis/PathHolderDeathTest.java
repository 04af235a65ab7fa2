package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.tck.process.ChildJvm;
import io.distlock.tck.process.ChildLine;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A path's holder process killed with SIGKILL never releases its path; the lease alone frees the path's ancestors,
 * within about one lease: the lease itself for a fixed one, the watchdog lease for an auto-renewed hold. A plain key's
 * holder death is the process contract's ({@link RedisProcessContractTest}), with the same bounds.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // a backstop far above the bounded waits of a case
class PathHolderDeathTest {

    // The leases and bounds of the process contract, whose io.distlock.tck.process.ProcessTimes says why.
    private static final Duration WATCHDOG_LEASE = Duration.ofSeconds(2);
    private static final Duration FIXED_LEASE = Duration.ofSeconds(3);
    private static final Duration EARLY_MARGIN = Duration.ofMillis(600);
    private static final Duration LATE_SLACK = Duration.ofMillis(2500);

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));
    private static final Duration WAIT = Duration.ofMinutes(1);

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final String tree = "death-tree:" + UUID.randomUUID();
    private ChildJvm holder;

    @AfterEach
    void cleanUp() throws Exception {
        if (holder != null) {
            holder.close();
        }
        clients.close();
    }

    @Test
    void ancestorsOfAKilledHoldersPathAreFreeWithinItsFixedLease() throws Exception {
        Lock next = connectedTree();
        holder = startHolder(Long.toString(FIXED_LEASE.toMillis()));
        ChildLine held = holder.awaitLine(PathHolderProcess.HELD);

        // Killed at once: an ancestor taken before the lower bound below, at the death or because the holder never
        // held its path, fails the case.
        CompletableFuture<Long> taken = waitFor(next, "project");
        long killed = System.nanoTime();
        holder.kill();
        Duration freedAfter =
                Duration.ofNanos(taken.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS) - held.receivedNanos());

        System.out.printf(
                "SIGKILL of a path's holder (killed %d ms after it held the path) to its ancestor's acquisition, fixed"
                        + " lease %d ms: %d ms after it held it%n",
                Duration.ofNanos(killed - held.receivedNanos()).toMillis(),
                FIXED_LEASE.toMillis(),
                freedAfter.toMillis());
        assertThat(Duration.ofNanos(killed - held.receivedNanos()))
                .isLessThan(FIXED_LEASE.minus(EARLY_MARGIN).dividedBy(2));
        assertThat(freedAfter).isBetween(FIXED_LEASE.minus(EARLY_MARGIN), FIXED_LEASE.plus(LATE_SLACK));
    }

    @Test
    void ancestorsOfAKilledHoldersAutoRenewedPathAreFreeWithinOneWatchdogLease() throws Exception {
        Lock next = connectedTree();
        holder = startHolder("renewed");
        holder.awaitLine(PathHolderProcess.HELD);
        // Several renewals first, so the path is known to be kept alive by the watchdog, not a long lease.
        await("the tree's root while a path's holder lives")
                .during(WATCHDOG_LEASE.multipliedBy(2))
                .atMost(WATCHDOG_LEASE.multipliedBy(2).plus(WAIT))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> isTaken(next, ""));

        CompletableFuture<Long> taken = waitFor(next, "");
        long killed = System.nanoTime();
        holder.kill();
        Duration freedAfter = Duration.ofNanos(taken.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS) - killed);

        System.out.printf(
                "SIGKILL of a path's holder to its tree root's acquisition, auto-renewed (watchdog lease %d ms): %d"
                        + " ms%n",
                WATCHDOG_LEASE.toMillis(), freedAfter.toMillis());
        // The last renewal came at most a third of the watchdog lease before the kill.
        assertThat(freedAfter)
                .isBetween(
                        WATCHDOG_LEASE.minus(WATCHDOG_LEASE.dividedBy(3)).minus(EARLY_MARGIN),
                        WATCHDOG_LEASE.plus(LATE_SLACK));
    }

    /** A path lock of the tree whose connection is up, so that what the case times never includes connecting. */
    private Lock connectedTree() throws InterruptedException {
        Lock lock = clients.lock().tree(tree);
        lock.tryAcquire("connect", LONG, WAIT).orElseThrow().release();
        return lock;
    }

    /** A holder of the tree's path {@code project/A/C}. */
    private ChildJvm startHolder(String lease) {
        return ChildJvm.start(
                PathHolderProcess.class,
                TestRedis.shared().uri(),
                Long.toString(WATCHDOG_LEASE.toMillis()),
                lease,
                tree,
                "project/A/C");
    }

    /** Tells that another owner holds the path, or fails at once: a probe that got it would find it taken next time. */
    private static boolean isTaken(Lock probe, String path) {
        assertThat(probe.tryAcquire(path, LONG))
                .as("the path %s while its holder lives", path)
                .isEmpty();
        return true;
    }

    /** Waits on another thread for the path; the future gives when it was taken, by {@link System#nanoTime()}. */
    private static CompletableFuture<Long> waitFor(Lock waiter, String path) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                Optional<LockHandle> taken = waiter.tryAcquire(path, LONG, WAIT);
                long takenAt = System.nanoTime();
                assertThat(taken)
                        .as("the path %s, %s after its holder was killed", path, WAIT)
                        .isPresent();
                taken.get().release();
                return takenAt;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }
}
