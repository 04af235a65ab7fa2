package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
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
 * Grants that wait for a replica's acknowledgement ({@code WAIT}), on a real primary with one replica. A paused replica
 * never acknowledges, yet stays connected: only a {@code WAIT} on the very connection that ran the grant notices.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicaAcknowledgementTest {

    private static final Duration ACK_TIMEOUT = Duration.ofMillis(300);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private static TestRedis primary;
    private static TestRedis replica;

    private final RedisClients clients = new RedisClients(primary);
    private final String key = "replica-ack:" + UUID.randomUUID();

    @BeforeAll
    static void startPrimaryAndReplica() {
        primary = TestRedis.start();
        replica = TestRedis.builder()
                .configLine("replicaof " + primary.host() + " " + primary.port())
                .start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> replica.command("INFO", "replication").contains("master_link_status:up"));
    }

    @AfterAll
    static void stopServers() {
        replica.close();
        primary.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void grantCountsOnceTheReplicaHasIt() throws Exception {
        RedisLock lock = clients.lock(builder -> builder.replicaAcknowledgements(1, ACK_TIMEOUT));

        LockHandle held = lock.tryAcquire(key, Lease.fixed(LEASE)).orElseThrow();

        assertThat(replica.command("GET", "{distlock:" + key + "}")).startsWith(held.ownerToken());
        assertThat(replica.command("GET", "{distlock:" + key + "}:fence"))
                .isEqualTo(Long.toString(held.fencingToken()));
        held.release();
    }

    @Test
    void grantNoReplicaAcknowledgesIsRefusedAndFreedAgain() {
        RedisLock lock = clients.lock(builder -> builder.replicaAcknowledgements(1, ACK_TIMEOUT));
        replica.pause();
        try {
            assertThatThrownBy(() -> lock.tryAcquire(key, Lease.fixed(LEASE)))
                    .isInstanceOf(LockBackendException.class)
                    .hasMessageContaining(key)
                    .hasMessageContaining("only 0 of the 1 replica(s)");
            await().atMost(Duration.ofSeconds(5))
                    .until(() ->
                            primary.command("EXISTS", "{distlock:" + key + "}").equals("0"));
        } finally {
            replica.resume();
        }
    }

    @Test
    void withoutReplicaAcknowledgementsTheSameGrantCountsAtOnce() throws Exception {
        RedisLock lock = clients.lock();
        replica.pause();
        try {
            lock.tryAcquire(key, Lease.fixed(LEASE)).orElseThrow().release();
        } finally {
            replica.resume();
        }
    }

    @Test
    void waiterOfTheSameInstanceTakesTheReleasedLockWithAnAcknowledgedGrantOfItsOwn() throws Exception {
        RedisLock lock = clients.lock(builder -> builder.replicaAcknowledgements(1, ACK_TIMEOUT));
        LockHandle first = lock.tryAcquire(key, Lease.fixed(LEASE)).orElseThrow();
        CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return lock.tryAcquire(key, Lease.fixed(LEASE), Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
        await().atMost(Duration.ofSeconds(5))
                .until(() -> primary.command("GET", "{distlock:" + key + "}").contains("+"));

        first.release();
        LockHandle second = waiter.get(5, TimeUnit.SECONDS).orElseThrow();

        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(replica.command("GET", "{distlock:" + key + "}")).startsWith(second.ownerToken());
        second.release();
    }

    @Test
    void settingsOutsideTheirRangeAreRefusedNamingTheRange() {
        assertThatThrownBy(() -> clients.lock(builder -> builder.replicaAcknowledgements(-1, ACK_TIMEOUT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 (none) or more");
        assertThatThrownBy(
                        () -> clients.lock(builder -> builder.replicaAcknowledgements(1, RedisClients.COMMAND_TIMEOUT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorter than the Redis command timeout (2000 ms)");
    }
}
