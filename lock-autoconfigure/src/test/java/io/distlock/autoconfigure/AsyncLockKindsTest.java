package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import reactor.core.publisher.Mono;

/** Asynchronous and reactive methods take the lock the synchronous ones would: fair, for reading, or a tree's path. */
@SpringBootTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncLockKindsTest {

    private static final Lease ELSEWHERE = Lease.fixed(Duration.ofSeconds(30));

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", () -> TestRedis.shared().port());
    }

    @Autowired
    private Kinds kinds;

    @Autowired
    private Lock lock;

    private final String id = UUID.randomUUID().toString();

    @Test
    void aFairMonoQueuesInRedisAndRunsOnceHandedTheLock() throws Exception {
        LockHandle held = lock.fair().tryAcquire("kinds:" + id, ELSEWHERE).orElseThrow();
        CompletableFuture<String> call = kinds.fairly(id).toFuture();

        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength("kinds:" + id) == 1);
        assertThat(call).isNotDone();
        held.release();

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    @Test
    void readingStagesShareTheKeyAndKeepWritersOut() throws Exception {
        CompletableFuture<String> firstWork = new CompletableFuture<>();
        CompletableFuture<String> secondWork = new CompletableFuture<>();
        CompletableFuture<String> first = kinds.reading(id, firstWork);
        CompletableFuture<String> second = kinds.reading(id, secondWork);

        await().atMost(Duration.ofSeconds(5)).until(() -> kinds.readers() >= 2);
        assertThat(lock.tryAcquire("kinds:" + id, ELSEWHERE)).isEmpty();

        firstWork.complete("a");
        secondWork.complete("b");

        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("a");
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("b");
        lock.tryAcquire("kinds:" + id, ELSEWHERE).orElseThrow().release();
    }

    @Test
    void aPathMonoWaitsForAnAncestorHeldInItsTree() throws Exception {
        LockHandle ancestor =
                lock.tree("project:" + id).tryAcquire("A", ELSEWHERE).orElseThrow();
        CompletableFuture<String> call = kinds.inFolder(id, "A/C").toFuture();

        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(call).isNotDone();
        ancestor.release();

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("A/C");
    }

    private long queueLength(String key) {
        return Long.parseLong(TestRedis.shared().command("ZCARD", "{distlock:" + key + "}:queue"));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Kinds kinds() {
            return new Kinds();
        }
    }

    static class Kinds {

        private volatile int readers;

        int readers() {
            return readers;
        }

        @DistributedLock(key = "'kinds:' + #id", fair = true, leaseSeconds = 30, waitSeconds = 10)
        public Mono<String> fairly(String id) {
            return Mono.just("ran");
        }

        @DistributedLock(key = "'kinds:' + #id", read = true, leaseSeconds = 30, waitSeconds = 10)
        public synchronized CompletableFuture<String> reading(String id, CompletableFuture<String> work) {
            readers++;
            return work;
        }

        @DistributedLock(tree = "'project:' + #id", path = "#folder", leaseSeconds = 30, waitSeconds = 10)
        public Mono<String> inFolder(String id, String folder) {
            return Mono.just(folder);
        }
    }
}
