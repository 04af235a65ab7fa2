package io.distlock.redis.internal.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The shared release subscription when subscribing fails and is retried. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReleaseConnectionTest {

    private static TestRedis redis;

    private final String suffix = UUID.randomUUID().toString();
    private final String user = "subscriber-" + suffix;
    private final String channel = "distlock:released:" + suffix;
    private LettuceConnectionFactory factory;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void cleanUp() {
        if (factory != null) {
            factory.destroy();
        }
        redis.command("ACL", "DELUSER", user);
    }

    @Test
    void subscriptionThatFailedIsRetriedAndItsListenerHearsEachReleaseOnce() {
        redis.command("ACL", "SETUSER", user, "on", ">secret", "~*", "allchannels", "+@all", "-subscribe");
        ReleaseConnection subscription = new ReleaseConnection(connectionFactoryOf(user), true);
        Counting listener = new Counting();
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> {
                    subscription.ensureSubscribed(channel, listener);
                    assertThat(listener.subscribed)
                            .as("subscribed while refused")
                            .hasValue(0);
                });

        redis.command("ACL", "SETUSER", user, "+subscribe");
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    subscription.ensureSubscribed(channel, listener);
                    return listener.subscribed.get() > 0;
                });
        subscription.ensureSubscribed(channel, listener);
        redis.command("PUBLISH", channel, "released");

        await().atMost(Duration.ofSeconds(5)).until(() -> listener.released.get() > 0);
        await().during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2))
                .untilAsserted(() ->
                        assertThat(listener.released).as("calls per release").hasValue(1));
        assertThat(listener.subscribed).as("told of the subscription once").hasValue(1);

        subscription.unsubscribe(channel, listener);
        redis.command("PUBLISH", channel, "released");
        await().during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2))
                .untilAsserted(() ->
                        assertThat(listener.released).as("calls per release").hasValue(1));
        subscription.close();
    }

    @Test
    void everyChannelAskedForWhileASubscriptionIsUnderWayGetsSubscribed() throws Exception {
        redis.command("ACL", "SETUSER", user, "on", ">secret", "~*", "allchannels", "+@all");
        ReleaseConnection subscription = new ReleaseConnection(connectionFactoryOf(user), true);
        Counting listener = new Counting();
        List<String> channels =
                IntStream.range(0, 200).mapToObj(i -> channel + ":" + i).toList();
        ExecutorService askers = Executors.newFixedThreadPool(4);
        try {
            for (String asked : channels) {
                askers.execute(() -> subscription.ensureSubscribed(asked, listener));
            }
        } finally {
            askers.shutdown();
            assertThat(askers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        // Nobody asks again: a channel asked for while a run of the subscriber was past it must not be left out.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(redis.command("PUBSUB", "CHANNELS", channel + ":*")
                                .lines()
                                .filter(line -> !line.isBlank())
                                .count())
                        .isEqualTo(channels.size()));
        subscription.close();
    }

    private LettuceConnectionFactory connectionFactoryOf(String username) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
        server.setUsername(username);
        server.setPassword("secret");
        factory = new LettuceConnectionFactory(
                server,
                LettuceClientConfiguration.builder()
                        .commandTimeout(Duration.ofSeconds(2))
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private static final class Counting implements ReleaseListener {
        final AtomicInteger released = new AtomicInteger();
        final AtomicInteger subscribed = new AtomicInteger();

        @Override
        public void released(String message) {
            released.incrementAndGet();
        }

        @Override
        public void subscribed() {
            subscribed.incrementAndGet();
        }
    }
}
