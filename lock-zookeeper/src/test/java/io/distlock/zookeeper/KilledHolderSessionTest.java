package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.store.StoreLock;
import io.distlock.tck.process.ChildJvm;
import io.distlock.tck.process.HolderChild;
import java.time.Duration;
import java.util.Optional;
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
 * ensemble expires its session after the session timeout and removes its node, and a waiter gets the key. The
 * holder's death within its lease is the process contract's ({@link ZooKeeperProcessContractTest}).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // a backstop far above the bounded waits of the case
class KilledHolderSessionTest {

    /** How much sooner than the expected expiry the key may be free: the way of a ping and of the ready line. */
    private static final Duration EARLY_MARGIN = Duration.ofMillis(1000);

    /**
     * How much later: the in-process server's expiry tick, its removal of the node and the waiter's watch all run in
     * the test JVM, which stalls for seconds on one busy core while other JVMs start (4.7 s after the kill, once). A
     * session that does not free the key keeps it for its 5-minute lease.
     */
    private static final Duration LATE_SLACK = Duration.ofMillis(3000);

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));
    private static final Duration WAIT = Duration.ofMinutes(1);

    private static TestZooKeeper zookeeper;

    private ChildJvm holder;
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
    void cleanUp() {
        if (holder != null) {
            holder.close();
        }
        if (next != null) {
            next.close();
        }
    }

    @Test
    void theLockOfAKilledHolderIsFreeAfterItsSessionTimeout() throws Exception {
        String key = "death:" + UUID.randomUUID();
        // The holder asks for the store's default 10 s session; the server grants its longest.
        Duration sessionTimeout = zookeeper.maxSessionTimeout();
        holder = HolderChild.start(
                ZooKeeperProcessLocks.class, zookeeper.connectString(), key, Lease.fixed(Duration.ofMinutes(5)));
        next = StoreLock.builder(
                        ZooKeeperLeaseStore.builder(zookeeper.connectString()).build())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        next.tryAcquire("connect:" + key, LONG, WAIT).orElseThrow().release();
        holder.awaitLine(HolderChild.HELD);
        assertThat(next.tryAcquire(key, LONG)).as("held by the other process").isEmpty();
        CompletableFuture<Long> taken = CompletableFuture.supplyAsync(() -> {
            try {
                Optional<LockHandle> got = next.tryAcquire(key, LONG, WAIT);
                long takenAt = System.nanoTime();
                assertThat(got)
                        .as("the key, %s after its holder was killed", WAIT)
                        .isPresent();
                got.get().release();
                return takenAt;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });

        long killed = System.nanoTime();
        holder.kill();
        Duration freedAfter = Duration.ofNanos(taken.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS) - killed);

        System.out.printf(
                "SIGKILL to next acquisition, session timeout %d ms: %d ms%n",
                sessionTimeout.toMillis(), freedAfter.toMillis());
        // The ensemble counts the timeout from the last packet it got; an idle client pings every third of it.
        assertThat(freedAfter)
                .isBetween(
                        sessionTimeout.multipliedBy(2).dividedBy(3).minus(EARLY_MARGIN),
                        sessionTimeout.plus(LATE_SLACK));
    }
}
