package io.distlock.zookeeper;

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
 * A holder process killed with SIGKILL never releases its lock, and its five-minute lease has not run out: the
 * ensemble expires its session after the session timeout and removes its node, and a waiter gets the key.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HolderDeathTest {

    private static final Duration SESSION_TIMEOUT = Duration.ofMillis(2500);
    private static final Duration SLACK = Duration.ofMillis(1000);
    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    private static TestZooKeeper zookeeper;

    private Process holder;
    private StoreLock next;

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
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
    void theLockOfAKilledHolderIsFreeAfterItsSessionTimeout() throws Exception {
        String key = "death:" + UUID.randomUUID();
        holder = ProcessSupport.start(
                HolderProcess.class, zookeeper.connectString(), key, Long.toString(SESSION_TIMEOUT.toMillis()));
        assertThat(ProcessSupport.awaitLine(holder, Duration.ofSeconds(30), "HELD "))
                .as("holder process reported HELD")
                .isNotNull();
        next = ProcessSupport.lock(zookeeper.connectString(), Duration.ofSeconds(10));
        assertThat(next.tryAcquire(key, LONG)).as("held by the other process").isEmpty();
        CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return next.tryAcquire(key, LONG, Duration.ofSeconds(20)).orElseThrow();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });

        long killed = System.nanoTime();
        holder.destroyForcibly();
        LockHandle acquired = waiting.get(30, TimeUnit.SECONDS);
        Duration freedAfter = Duration.ofNanos(System.nanoTime() - killed);

        System.out.printf(
                "SIGKILL to next acquisition, session timeout %d ms: %d ms%n",
                SESSION_TIMEOUT.toMillis(), freedAfter.toMillis());
        assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(acquired.isHeld()).isTrue();
        // The ensemble counts the timeout from the last packet it got; an idle client pings every third of it.
        assertThat(freedAfter)
                .isBetween(SESSION_TIMEOUT.multipliedBy(2).dividedBy(3).minus(SLACK), SESSION_TIMEOUT.plus(SLACK));
    }
}
