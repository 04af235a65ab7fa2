package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A holder whose session ends has lost its lock: it is told (isLost, onLost) while another client takes the key, even
 * though its lease was long.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SessionExpiryTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(60));

    private static TestZooKeeper zookeeper;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "expiry:" + UUID.randomUUID();
    private StoreLock other;

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        if (other != null) {
            other.close();
        }
    }

    @Test
    void aSessionExpiredByTheEnsembleIsReportedLostWhileAnotherClientTakesTheKey() throws Exception {
        CuratorFramework holderClient = zookeeper.newClient(Duration.ofSeconds(10));
        StoreLock holder = lockOn(holderClient);
        other = lockOn(zookeeper.newClient());
        LockHandle held = holder.acquire(key, LONG);
        CountDownLatch lost = new CountDownLatch(1);
        held.onLost(reason -> lost.countDown());
        CompletableFuture<Optional<LockHandle>> next = waitFor(key);

        long expired = System.nanoTime();
        zookeeper.expireSession(holderClient);

        LockHandle taken = next.get(10, TimeUnit.SECONDS).orElseThrow();
        Duration takenAfter = Duration.ofNanos(System.nanoTime() - expired);
        assertThat(lost.await(5, TimeUnit.SECONDS)).as("onLost ran").isTrue();
        assertThat(held.isLost()).isTrue();
        assertThat(taken.isHeld()).isTrue();
        assertThat(taken.fencingToken()).isGreaterThan(held.fencingToken());
        // Woken by the expiry itself, not by a lease or a poll; 5 s leaves a busy machine room.
        assertThat(takenAfter).isLessThan(Duration.ofSeconds(5));
        holder.close();
    }

    @Test
    void aSessionThatTheClientSeesExpireIsLostAtOnceAndItsNodeIsRemovedOnceItReconnects() throws Exception {
        // Long enough that a next holder in time shows the client's removal, not the server's expiry, on a busy
        // machine.
        Duration sessionTimeout = Duration.ofSeconds(10);
        CuratorFramework holderClient = zookeeper.newClient(sessionTimeout);
        StoreLock holder = lockOn(holderClient);
        other = lockOn(zookeeper.newClient());
        LockHandle held = holder.acquire(key, LONG);
        CountDownLatch lost = new CountDownLatch(1);
        held.onLost(reason -> lost.countDown());
        CompletableFuture<Optional<LockHandle>> next = waitFor(key);

        long expired = System.nanoTime();
        holderClient.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();

        // Told by the client, well before the session could end on the server.
        assertThat(lost.await(5, TimeUnit.SECONDS)).as("onLost ran at once").isTrue();
        assertThat(held.isLost()).isTrue();
        LockHandle taken = next.get(10, TimeUnit.SECONDS).orElseThrow();
        Duration takenAfter = Duration.ofNanos(System.nanoTime() - expired);
        System.out.printf("client-side expiry to the next holder: %d ms%n", takenAfter.toMillis());
        // The old session still lives on the server; the client removes the lost node from its new session.
        assertThat(takenAfter).isLessThan(sessionTimeout);
        holder.close();
    }

    @Test
    void aSuspendedConnectionEndsTheHoldWithAReasonOfItsOwnAndTheKeyIsFreeOnceTheServerIsBack() throws Exception {
        StoreLock holder = lockOn(zookeeper.newClient(Duration.ofSeconds(10)));
        LockHandle held = holder.acquire(key, LONG);
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        held.onLost(lost::complete);

        zookeeper.server().restart();

        assertThat(lost.get(10, TimeUnit.SECONDS).reason())
                .as("why the hold was lost: the session may still live, so the key is not known to be gone")
                .isEqualTo(LockLostException.Reason.CONNECTION_SUSPENDED);
        other = lockOn(zookeeper.newClient());
        assertThat(other.tryAcquire(key, LONG, Duration.ofSeconds(10)))
                .as("the lost hold's node was removed although its session lives")
                .isPresent();
        holder.close();
    }

    private CompletableFuture<Optional<LockHandle>> waitFor(String key) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return other.tryAcquire(key, LONG, Duration.ofSeconds(15));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                },
                threads);
    }

    private static StoreLock lockOn(CuratorFramework client) {
        return StoreLock.builder(ZooKeeperLeaseStore.builder(client).build())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
    }
}
