package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.distlock.Lease;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** The warning at first use when Redis may evict lock keys or fencing counters. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EvictionPolicyCheckTest {

    private static TestRedis redis;

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final RedisClients clients = new RedisClients(redis);
    private final String key = "eviction:" + UUID.randomUUID();

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.builder().configLine("maxmemory-policy allkeys-lru").start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void captureLogs() {
        logged.start();
        root.addAppender(logged);
    }

    @AfterEach
    void cleanUp() throws Exception {
        root.detachAppender(logged);
        clients.close();
        redis.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
    }

    @Test
    void firstUseWarnsWithTheFixWhenRedisMayEvictAnyKey() throws Exception {
        RedisLock lock = clients.lock();
        lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5))).orElseThrow().release();
        lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(1))
                .orElseThrow()
                .release();

        await().atMost(Duration.ofSeconds(10)).until(() -> !warnings().isEmpty());
        assertThat(warnings())
                .singleElement()
                .satisfies(warning ->
                        assertThat(warning).contains("maxmemory-policy allkeys-lru", "fencing counter", "noeviction"));
    }

    @Test
    void firstUseWarnsThatHeldLocksCanVanishUnderAVolatilePolicy() throws Exception {
        redis.command("CONFIG", "SET", "maxmemory-policy", "volatile-ttl");
        RedisLock lock = clients.lock();
        lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(1))
                .orElseThrow()
                .release();

        await().atMost(Duration.ofSeconds(10)).until(() -> !warnings().isEmpty());
        assertThat(warnings())
                .singleElement()
                .satisfies(warning -> assertThat(warning)
                        .contains("maxmemory-policy volatile-ttl", "held lock can vanish", "noeviction"));
    }

    @Test
    void noevictionIsNotWarnedAbout() throws Exception {
        redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        RedisLock lock = clients.lock();
        lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5))).orElseThrow().release();

        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(3))
                .until(() -> warnings().isEmpty());
    }

    private List<String> warnings() {
        return logged.list.stream()
                .filter(event -> event.getLevel() == Level.WARN
                        && event.getFormattedMessage().contains("maxmemory"))
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }
}
