package io.distlock.sample.inventory.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.sample.inventory.InventoryApplication;
import io.distlock.sample.inventory.Skus;
import io.distlock.test.redis.TestRedis;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Which Redis the application uses with the {@code demo} profile: its own embedded one unless one is configured.
 * Without the profile, no Redis configured fails start-up ({@code SafeDefaultsTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmbeddedRedisDefaultTest {

    /** The port of the machine's own Redis, which tests must never use. */
    private static final int SHARED_REDIS_PORT = 6379;

    @Test
    void withoutRedisConfiguredItStartsAnEmbeddedOneOnAFreePortAndStopsItOnShutdown() throws Exception {
        int port;
        try (ConfigurableApplicationContext app = start("--spring.profiles.active=demo")) {
            EmbeddedRedis embedded = app.getBean(EmbeddedRedis.class);
            port = embedded.port();
            DataRedisConnectionDetails.Standalone connection =
                    app.getBean(DataRedisConnectionDetails.class).getStandalone();

            assertThat(port).isNotEqualTo(SHARED_REDIS_PORT);
            assertThat(connection.getHost()).isEqualTo("127.0.0.1");
            assertThat(connection.getPort()).isEqualTo(port);
            assertWorks(app);
        }
        assertThatThrownBy(() -> connect(port)).isInstanceOf(IOException.class);
    }

    @Test
    void withAUrlItUsesThatRedisAndStartsNothing() {
        TestRedis redis = TestRedis.shared();

        try (ConfigurableApplicationContext app =
                start("--spring.profiles.active=demo", "--spring.data.redis.url=" + redis.uri())) {
            assertThat(app.getBeanProvider(EmbeddedRedis.class).getIfAvailable())
                    .isNull();
            String key = assertWorks(app);
            assertThat(redis.command("EXISTS", key)).isEqualTo("1");
        }
    }

    @Test
    void withHostAndPortItUsesThatRedisAndStartsNothing() {
        TestRedis redis = TestRedis.shared();

        try (ConfigurableApplicationContext app =
                start("--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port())) {
            assertThat(app.getBeanProvider(EmbeddedRedis.class).getIfAvailable())
                    .isNull();
            String key = assertWorks(app);
            assertThat(redis.command("EXISTS", key)).isEqualTo("1");
        }
    }

    private static ConfigurableApplicationContext start(String... args) {
        return new SpringApplicationBuilder(InventoryApplication.class)
                .web(WebApplicationType.NONE)
                .run(args);
    }

    /** Writes a key and takes a lock through the application's beans; returns the key. */
    private static String assertWorks(ConfigurableApplicationContext app) {
        String key = "embedded-test:" + Skus.unique();
        StringRedisTemplate redis = app.getBean(StringRedisTemplate.class);
        redis.opsForValue().set(key, "1");
        assertThat(redis.opsForValue().get(key)).isEqualTo("1");
        try (LockHandle held = app.getBean(Lock.class).tryAcquire(key).orElseThrow()) {
            assertThat(held.fencingToken()).isPositive();
        }
        return key;
    }

    private static void connect(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        }
    }
}
