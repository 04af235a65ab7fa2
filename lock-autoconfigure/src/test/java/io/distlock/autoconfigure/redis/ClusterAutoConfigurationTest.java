package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.redis.RedisLock;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * distlock on a Redis Cluster configured the Spring Boot way, with the topology refresh the README recommends: the
 * {@code Lock} bean and the annotation work with keys on every master.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterAutoConfigurationTest {

    private static TestRedisCluster cluster;

    /** The channel on which each instance finds out whether the cluster serves sharded pub/sub. */
    private static final String PROBE_CHANNEL = "distlock:sharded-pub-sub-probe";

    private final String base = "boot-cluster:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void startCluster() {
        cluster = TestRedisCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    private ApplicationContextRunner runner() {
        return DistlockContexts.runner()
                .withPropertyValues(
                        "spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodeAddresses()),
                        "spring.data.redis.lettuce.cluster.refresh.period=5s",
                        "spring.data.redis.timeout=2s");
    }

    @Test
    void lockBeanUsesTheClusterAndTheApplicationsTemplate() {
        runner().run(context -> {
            assertThat(context.getBean(LettuceConnectionFactory.class).isClusterAware())
                    .isTrue();
            RedisLock lock = context.getBean(RedisLock.class);
            assertThat(lock.template()).isSameAs(context.getBean(StringRedisTemplate.class));

            Set<Integer> masters = new HashSet<>();
            for (int i = 0; masters.size() < 3; i++) {
                assertThat(i).as("keys tried before every master served one").isLessThan(1000);
                String key = base + i;
                masters.add(cluster.masterOf("{distlock:" + key + "}").port());
                LockHandle held = lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                        .orElseThrow();
                assertThat(lock.tryAcquire(key)).isEmpty();
                held.release();
            }
        });
    }

    /** The release goes out as SPUBLISH by default, and as classic PUBLISH with sharded pub/sub turned off. */
    @ParameterizedTest(name = "distlock.redis.cluster.sharded-pub-sub={0}")
    @ValueSource(booleans = {true, false})
    void waiterOfAnotherApplicationInstanceIsWokenByTheRelease(boolean sharded) {
        ApplicationContextRunner instance =
                runner().withPropertyValues("distlock.redis.cluster.sharded-pub-sub=" + sharded);
        instance.run(first -> instance.run(second -> {
            String key = base + "handover:" + sharded;
            // Each instance finds out at its first release whether the cluster shards.
            for (Lock lock : List.of(first.getBean(Lock.class), second.getBean(Lock.class))) {
                lock.tryAcquire(key).orElseThrow().release();
            }
            LockHandle held = first.getBean(Lock.class)
                    .tryAcquire(key, Lease.fixed(Duration.ofSeconds(60)))
                    .orElseThrow();
            CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
                try {
                    return second.getBean(Lock.class)
                            .tryAcquire(key, Lease.fixed(Duration.ofSeconds(60)), Duration.ofSeconds(20));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            });
            TestRedis master = cluster.masterOf("{distlock:" + key + "}");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> master.command("GET", "{distlock:" + key + "}").contains("+"));
            if (sharded) {
                // Each instance learns in the background, at its first release, that the cluster serves sharded
                // pub/sub (it subscribes to a probe channel); until then it announces releases the classic way.
                TestRedis probed = cluster.masterOf(PROBE_CHANNEL);
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> probed.command("PUBSUB", "SHARDNUMSUB", PROBE_CHANNEL)
                                .endsWith("\n2"));
            }

            long publishedBefore = busMessagesSent("publish");
            long shardPublishedBefore = busMessagesSent("publishshard");
            held.release();

            // Far sooner than the holder's 60 s lease: only the announced release can have woken it.
            waiter.get(5, TimeUnit.SECONDS).orElseThrow().release();
            assertThat(busMessagesSent(sharded ? "publishshard" : "publish"))
                    .as("cluster bus messages of the announcement")
                    .isGreaterThan(sharded ? shardPublishedBefore : publishedBefore);
            assertThat(busMessagesSent(sharded ? "publish" : "publishshard"))
                    .isEqualTo(sharded ? publishedBefore : shardPublishedBefore);
        }));
    }

    /** The {@code cluster_stats_messages_<type>_sent} of every node, summed. */
    private static long busMessagesSent(String type) {
        String stat = "cluster_stats_messages_" + type + "_sent:";
        long sent = 0;
        for (TestRedis node : cluster.nodes()) {
            for (String line : node.command("CLUSTER", "INFO").split("\\r?\\n")) {
                if (line.startsWith(stat)) {
                    sent += Long.parseLong(line.substring(stat.length()).trim());
                }
            }
        }
        return sent;
    }

    @Test
    void annotatedMethodsLockOnTheCluster() {
        runner().withUserConfiguration(CounterConfiguration.class).run(context -> {
            Counter counter = context.getBean(Counter.class);
            CompletableFuture<?>[] calls = new CompletableFuture<?>[8];
            ExecutorService threads = Executors.newFixedThreadPool(calls.length);
            try {
                for (int i = 0; i < calls.length; i++) {
                    calls[i] = CompletableFuture.runAsync(() -> counter.increment(base + "annotated"), threads);
                }
                CompletableFuture.allOf(calls).get(60, TimeUnit.SECONDS);
            } finally {
                threads.shutdownNow();
            }
            assertThat(counter.maxConcurrent()).isEqualTo(1);
            assertThat(counter.calls()).isEqualTo(calls.length);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class CounterConfiguration {

        @Bean
        Counter counter() {
            return new Counter();
        }
    }

    /** Counts how many callers are inside at once. */
    static class Counter {

        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger maxConcurrent = new AtomicInteger();
        private final AtomicInteger calls = new AtomicInteger();

        @DistributedLock(key = "#key", waitSeconds = 30)
        public void increment(String key) {
            int now = inside.incrementAndGet();
            maxConcurrent.accumulateAndGet(now, Math::max);
            calls.incrementAndGet();
            // Long enough for overlapping callers to show; the lock makes them queue.
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            inside.decrementAndGet();
        }

        int maxConcurrent() {
            return maxConcurrent.get();
        }

        int calls() {
            return calls.get();
        }
    }
}
