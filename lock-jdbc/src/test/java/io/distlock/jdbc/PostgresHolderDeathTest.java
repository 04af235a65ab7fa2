package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A holder process killed with SIGKILL never releases its lock; its lease in PostgreSQL alone frees it, within the
 * watchdog lease for an auto-renewed hold and within the lease for a fixed one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PostgresHolderDeathTest {

    private static final long LEASE_MILLIS = 2000;
    private static final Duration SLACK = Duration.ofMillis(600);

    private static TestPostgres postgres;

    private final String key = "death:" + UUID.randomUUID();
    private StoreLock next;
    private Process holder;

    @BeforeAll
    static void startPostgres() {
        postgres = TestPostgres.start();
        JdbcLeaseStore.builder(postgres.dataSource()).createTableIfMissing(true).build();
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (holder != null) {
            holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (next != null) {
            next.close();
        }
    }

    @Test
    void fixedLeaseOfAKilledHolderRunsOutWithinItsLease() throws Exception {
        Duration freedAfter = killHolderAndTimeNextAcquisition(Long.toString(LEASE_MILLIS));

        System.out.printf(
                "PostgreSQL, SIGKILL to next acquisition, fixed lease %d ms: %d ms%n",
                LEASE_MILLIS, freedAfter.toMillis());
        assertThat(freedAfter).isLessThan(Duration.ofMillis(LEASE_MILLIS).plus(SLACK));
    }

    @Test
    void renewedLeaseOfAKilledHolderRunsOutWithinOneWatchdogLease() throws Exception {
        Duration freedAfter = killHolderAndTimeNextAcquisition("renewed");

        System.out.printf(
                "PostgreSQL, SIGKILL to next acquisition, auto-renewed (watchdog lease %d ms): %d ms%n",
                LEASE_MILLIS, freedAfter.toMillis());
        assertThat(freedAfter).isLessThan(Duration.ofMillis(LEASE_MILLIS).plus(SLACK));
    }

    private Duration killHolderAndTimeNextAcquisition(String lease) throws Exception {
        next = StoreLock.builder(JdbcLeaseStore.builder(postgres.dataSource()).build())
                .build();
        holder = TestProcesses.start(
                JdbcHolderProcess.class, Integer.toString(postgres.port()), key, Long.toString(LEASE_MILLIS), lease);
        TestProcesses.awaitLine(holder, "HELD ", 30);
        assertThat(next.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))))
                .as("held by the other process")
                .isEmpty();
        if (lease.equals("renewed")) {
            // Outlive several renewals first, so the lock is known to be kept by the watchdog, not by a long lease.
            Thread.sleep(LEASE_MILLIS * 2);
            assertThat(next.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))))
                    .isEmpty();
        }
        CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return next.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)), Duration.ofSeconds(20))
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
}
