package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** Owner tokens are unguessable and stay out of logs at INFO and above, whatever goes wrong. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OwnerTokenSecrecyTest {

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final String key = "secrecy:" + UUID.randomUUID();

    @BeforeEach
    void captureLogs() {
        logged.start();
        root.addAppender(logged);
    }

    @AfterEach
    void stopCapturing() {
        root.detachAppender(logged);
    }

    @Test
    void tokensAreLongRandomAndDistinct() {
        try (RedisClients clients = new RedisClients(TestRedis.shared())) {
            RedisLock lock = clients.lock();
            Set<String> tokens = new HashSet<>();
            for (int i = 0; i < 500; i++) {
                LockHandle held = lock.tryAcquire(key + i, Lease.fixed(Duration.ofSeconds(5)))
                        .orElseThrow();
                tokens.add(held.ownerToken());
                held.release();
            }
            assertThat(tokens).hasSize(500);
            assertThat(tokens).allSatisfy(token -> assertThat(token).matches("[A-Za-z0-9_-]{22}"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void noTokenAppearsInLogsAtInfoOrAboveEvenWhenThingsGoWrong() throws Exception {
        List<String> tokens = new ArrayList<>();
        try (TestRedis redis = TestRedis.start();
                RedisClients clients = new RedisClients(redis)) {
            RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(600)));
            RedisLock other = clients.lock();

            LockHandle normal = lock.tryAcquire(key + ":normal", Lease.fixed(Duration.ofSeconds(5)))
                    .orElseThrow();
            tokens.add(normal.ownerToken());
            normal.release();

            LockHandle expired = lock.tryAcquire(key + ":expired", Lease.fixed(Duration.ofMillis(100)))
                    .orElseThrow();
            tokens.add(expired.ownerToken());
            LockHandle successor = other.tryAcquire(
                            key + ":expired", Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(5))
                    .orElseThrow();
            tokens.add(successor.ownerToken());
            assertThatThrownBy(expired::release).isInstanceOf(LockLostException.class);

            LockHandle renewed = lock.tryAcquire(key + ":renewed").orElseThrow();
            tokens.add(renewed.ownerToken());
            redis.pause();
            await().atMost(Duration.ofSeconds(5)).until(renewed::isLost);
            redis.resume();

            redis.kill();
            assertThatThrownBy(() -> lock.tryAcquire(key + ":down", Lease.fixed(Duration.ofSeconds(5))))
                    .isInstanceOf(LockBackendException.class);
            assertThatThrownBy(renewed::release).isInstanceOf(RuntimeException.class);
            redis.startAgain();
        }

        List<String> visible = logged.list.stream()
                .filter(event -> event.getLevel().isGreaterOrEqual(Level.INFO))
                .map(event -> event.getFormattedMessage()
                        + (event.getThrowableProxy() == null
                                ? ""
                                : ThrowableProxyUtil.asString(event.getThrowableProxy())))
                .toList();
        assertThat(visible).as("log lines at INFO or above").isNotEmpty();
        for (String token : tokens) {
            assertThat(visible).noneMatch(line -> line.contains(token));
        }
    }
}
