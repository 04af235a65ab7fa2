package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A holder process killed with SIGKILL never releases its lock; the lease alone frees it. Another process gets the
 * lock within about one lease: the watchdog lease for an auto-renewed hold, the lease itself for a fixed one. A path's
 * holder that dies frees the path's ancestors the same way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HolderDeathTest {

    private static final long WATCHDOG_LEASE_MILLIS = 2000;
    private static final long FIXED_LEASE_MILLIS = 2000;
    private static final Duration SLACK = Duration.ofMillis(600);

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final String key = "death:" + UUID.randomUUID();
    private Process holder;

    @AfterEach
    void cleanUp() throws Exception {
        if (holder != null) {
            holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        clients.close();
    }

    @Test
    void autoRenewedLockOfAKilledHolderIsFreeWithinOneWatchdogLease() throws Exception {
        Duration freedAfter = killHolderAndTimeNextAcquisition("renewed");

        System.out.printf(
                "SIGKILL to next acquisition, auto-renewed (watchdog lease %d ms): %d ms%n",
                WATCHDOG_LEASE_MILLIS, freedAfter.toMillis());
        assertThat(freedAfter)
                .isLessThan(Duration.ofMillis(WATCHDOG_LEASE_MILLIS).plus(SLACK));
    }

    @Test
    void fixedLeaseLockOfAKilledHolderIsFreeWithinItsLease() throws Exception {
        Duration freedAfter = killHolderAndTimeNextAcquisition(Long.toString(FIXED_LEASE_MILLIS));

        System.out.printf(
                "SIGKILL to next acquisition, fixed lease %d ms: %d ms%n", FIXED_LEASE_MILLIS, freedAfter.toMillis());
        assertThat(freedAfter).isLessThan(Duration.ofMillis(FIXED_LEASE_MILLIS).plus(SLACK));
    }

    @Test
    void ancestorsOfAKilledHoldersPathAreFreeWithinItsFixedLease() throws Exception {
        String tree = "death-tree:" + UUID.randomUUID();
        Duration freedAfter = killHolderAndTimeNextAcquisition(
                Long.toString(FIXED_LEASE_MILLIS), clients.lock().tree(tree), "project", "project/A/C", tree);

        System.out.printf(
                "SIGKILL of a path's holder to its ancestor's acquisition, fixed lease %d ms: %d ms%n",
                FIXED_LEASE_MILLIS, freedAfter.toMillis());
        assertThat(freedAfter).isLessThan(Duration.ofMillis(FIXED_LEASE_MILLIS).plus(SLACK));
    }

    @Test
    void ancestorsOfAKilledHoldersAutoRenewedPathAreFreeWithinOneWatchdogLease() throws Exception {
        String tree = "death-tree:" + UUID.randomUUID();
        Duration freedAfter =
                killHolderAndTimeNextAcquisition("renewed", clients.lock().tree(tree), "", "project/A/C", tree);

        System.out.printf(
                "SIGKILL of a path's holder to its tree root's acquisition, auto-renewed (watchdog lease %d ms): %d"
                        + " ms%n",
                WATCHDOG_LEASE_MILLIS, freedAfter.toMillis());
        assertThat(freedAfter)
                .isLessThan(Duration.ofMillis(WATCHDOG_LEASE_MILLIS).plus(SLACK));
    }

    private Duration killHolderAndTimeNextAcquisition(String lease) throws Exception {
        return killHolderAndTimeNextAcquisition(lease, clients.lock(), key, key);
    }

    /**
     * Starts a holder of {@code holderArgs} (its key, then the tree if it holds a path), kills it, and times how long
     * {@code next} then waits for {@code wanted}.
     */
    private Duration killHolderAndTimeNextAcquisition(String lease, Lock next, String wanted, String... holderArgs)
            throws Exception {
        holder = startHolder(lease, holderArgs);
        awaitHeld(holder);
        assertThat(next.tryAcquire(wanted, Lease.fixed(Duration.ofSeconds(30))))
                .as("held by the other process")
                .isEmpty();
        if (lease.equals("renewed")) {
            // Outlive several renewals first, so the lock is known to be kept alive by the watchdog, not a long lease.
            Thread.sleep(WATCHDOG_LEASE_MILLIS * 2);
            assertThat(next.tryAcquire(wanted, Lease.fixed(Duration.ofSeconds(30))))
                    .isEmpty();
        }
        CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return next.tryAcquire(wanted, Lease.fixed(Duration.ofSeconds(30)), Duration.ofSeconds(20))
                        .orElseThrow();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        long killed = System.nanoTime();
        holder.destroyForcibly();
        LockHandle acquired = waiting.get(30, TimeUnit.SECONDS);
        Duration freedAfter = Duration.ofNanos(System.nanoTime() - killed);
        assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(acquired.isHeld()).isTrue();
        return freedAfter;
    }

    private Process startHolder(String lease, String... holderArgs) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                LockHolderProcess.class.getName(),
                Integer.toString(TestRedis.shared().port()),
                holderArgs[0],
                Long.toString(WATCHDOG_LEASE_MILLIS),
                lease));
        command.addAll(List.of(holderArgs).subList(1, holderArgs.length));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static void awaitHeld(Process process) throws Exception {
        BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Boolean> held = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = output.readLine()) != null) {
                    if (line.startsWith("HELD ")) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                return false;
            }
        });
        assertThat(held.get(30, TimeUnit.SECONDS))
                .as("holder process reported HELD")
                .isTrue();
    }
}
