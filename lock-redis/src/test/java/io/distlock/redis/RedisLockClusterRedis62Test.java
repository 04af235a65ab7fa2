package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.redis.internal.pubsub.ShardedSubscriptions;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
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
import org.slf4j.LoggerFactory;

/**
 * distlock on a Redis Cluster of Redis 6.2 (the embedded binary), which has no sharded pub/sub: with the default
 * settings, releases are announced with classic PUBLISH and still wake the waiters of other instances.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisLockClusterRedis62Test {

    private static final Duration LONG_LEASE = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Far below {@link #LONG_LEASE}: a waiter this fast was woken by the release, not by the lease running out. */
    private static final Duration WOKEN_WITHIN = Duration.ofSeconds(5);

    private static TestRedisCluster cluster;

    private final RedisClients clients = new RedisClients(cluster);
    private final String base = "cluster62:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void startCluster() {
        cluster = TestRedisCluster.builder()
                .provider(TestRedis.Provider.EMBEDDED)
                .masters(3)
                .replicasPerMaster(0)
                .start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void withoutShardedPubSubReleasesAreAnnouncedClassicallyAndWakeWaitersOfAnotherInstance() throws Exception {
        assertThat(cluster.nodes().get(0).command("INFO", "server")).contains("redis_version:6.2");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger subscriptionLog = (Logger) LoggerFactory.getLogger(ShardedSubscriptions.class);
        logged.start();
        subscriptionLog.addAppender(logged);
        try {
            RedisLock lock = clients.lock();
            RedisLock other = clients.lock();
            String key = base + "classic";
            // The first release makes each instance find out whether the cluster serves sharded pub/sub.
            lock.acquire(key, Lease.fixed(LONG_LEASE)).release();
            other.acquire(key, Lease.fixed(LONG_LEASE)).release();
            await().atMost(WAIT)
                    .until(() -> logged.list.stream()
                                    .filter(event -> event.getLevel() == Level.INFO)
                                    .filter(event ->
                                            event.getFormattedMessage().contains("does not serve sharded pub/sub"))
                                    .count()
                            == 2);

            LockHandle held = lock.acquire(key, Lease.fixed(LONG_LEASE));
            CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return other.tryAcquire(key, Lease.fixed(LONG_LEASE), WAIT);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            });
            TestRedis master = cluster.masterOf("{distlock:" + key + "}");
            await().atMost(WAIT)
                    .until(() -> master.command("GET", "{distlock:" + key + "}").contains("+"));
            long published = publishMessagesSent();
            held.release();

            LockHandle next =
                    waiter.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
            next.release();
            assertThat(publishMessagesSent() - published)
                    .as("classic PUBLISH messages on the cluster bus: one per other node")
                    .isEqualTo(cluster.nodes().size() - 1);
        } finally {
            subscriptionLog.detachAppender(logged);
        }
    }

    private static long publishMessagesSent() {
        long sent = 0;
        for (TestRedis node : cluster.nodes()) {
            for (String line : node.command("CLUSTER", "INFO").split("\\r?\\n")) {
                if (line.startsWith("cluster_stats_messages_publish_sent:")) {
                    sent += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        return sent;
    }
}
