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

/** {@code @DistributedLock(fair = true)} waits in the fair lock's queue in Redis; a plain one does not. */
@SpringBootTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FairAnnotationTest {

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", () -> TestRedis.shared().port());
    }

    @Autowired
    private Jobs jobs;

    @Autowired
    private Lock lock;

    private final String name = "job-" + UUID.randomUUID();

    @Test
    void aFairMethodQueuesInRedisAndRunsOnceHandedTheLock() throws Exception {
        LockHandle held = lock.fair()
                .tryAcquire("job:" + name, Lease.fixed(Duration.ofSeconds(30)))
                .orElseThrow();
        CompletableFuture<String> fairCall = CompletableFuture.supplyAsync(() -> jobs.fairly(name));

        await().atMost(Duration.ofSeconds(5)).until(() -> queueLength() == 1);
        assertThat(fairCall).isNotDone();
        held.release();

        assertThat(fairCall.get(5, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    @Test
    void aPlainMethodDoesNotQueue() throws Exception {
        LockHandle held = lock.tryAcquire("job:" + name, Lease.fixed(Duration.ofSeconds(30)))
                .orElseThrow();
        CompletableFuture<String> plainCall = CompletableFuture.supplyAsync(() -> jobs.plainly(name));

        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(queueLength()).isZero();
        held.release();

        assertThat(plainCall.get(5, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    private long queueLength() {
        return Long.parseLong(TestRedis.shared().command("ZCARD", "{distlock:job:" + name + "}:queue"));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }

    static class Jobs {

        @DistributedLock(key = "'job:' + #name", fair = true, leaseSeconds = 10, waitSeconds = 5)
        public String fairly(String name) {
            return "ran";
        }

        @DistributedLock(key = "'job:' + #name", leaseSeconds = 10, waitSeconds = 5)
        public String plainly(String name) {
            return "ran";
        }
    }
}
