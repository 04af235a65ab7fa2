package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Options, the tiny RESP client and failure reporting, on servers from the default provider. */
@Timeout(30)
class TestRedisOptionsTest {

    @Test
    void passwordIsRequiredAndUsedByCommand() throws Exception {
        try (TestRedis redis = TestRedis.builder().password("s3cret/pw").start()) {
            try (RespConnection anonymous = RespConnection.open(redis.host(), redis.port(), Duration.ofSeconds(5))) {
                assertThatThrownBy(() -> anonymous.call("GET", "key"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageStartingWith("NOAUTH");
            }
            assertThat(redis.password()).isEqualTo("s3cret/pw");
            assertThat(redis.command("SET", "key", "value")).isEqualTo("OK");
            assertThat(redis.command("GET", "key")).isEqualTo("value");
            assertThat(redis.uri()).isEqualTo("redis://:s3cret%2Fpw@127.0.0.1:" + redis.port());
        }
    }

    @Test
    void uriWithoutPasswordHasNoCredentials() {
        TestRedis redis = TestRedis.shared();
        assertThat(redis.password()).isNull();
        assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
    }

    @Test
    void configLinesReachTheServer() throws Exception {
        try (TestRedis redis = TestRedis.builder()
                .configLine("user app on >app-pw ~{distlock:* resetchannels &distlock:* +@all", "maxmemory 10mb")
                .start()) {
            assertThat(redis.command("CONFIG", "GET", "maxmemory")).isEqualTo("maxmemory\n10485760");
            try (RespConnection app = RespConnection.open(redis.host(), redis.port(), Duration.ofSeconds(5))) {
                assertThat(app.call("AUTH", "app", "app-pw")).isEqualTo("OK");
                assertThat(app.call("SET", "{distlock:a}", "1")).isEqualTo("OK");
                assertThatThrownBy(() -> app.call("SET", "other", "1"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageStartingWith("NOPERM");
            }
        }
    }

    @Test
    void failedStartReportsTheServerLog() {
        assertThatThrownBy(() ->
                        TestRedis.builder().configLine("no-such-directive yes").start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with code")
                .hasMessageContaining("redis.log")
                .hasMessageContaining("Bad directive");
    }

    @Test
    void commandReportsRepliesAsText() {
        try (TestRedis redis = TestRedis.start()) {
            assertThat(redis.command("SET", "k", "v", "PX", "60000")).isEqualTo("OK");
            assertThat(Long.parseLong(redis.command("PTTL", "k"))).isBetween(1L, 60000L);
            assertThat(redis.command("RPUSH", "list", "a", "b")).isEqualTo("2");
            assertThat(redis.command("LRANGE", "list", "0", "-1")).isEqualTo("a\nb");
            assertThat(redis.command("INFO", "commandstats")).contains("cmdstat_rpush:calls=1");
            assertThatThrownBy(() -> redis.command("INCR", "k"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not an integer");

            redis.flushAll();
            assertThat(redis.command("DBSIZE")).isEqualTo("0");
        }
    }

    @Test
    void sharedServerIsStartedOnceAndCannotBeDisturbed() {
        TestRedis shared = TestRedis.shared();
        assertThat(TestRedis.shared()).isSameAs(shared);

        shared.close();
        assertThat(shared.command("PING")).isEqualTo("PONG");
        assertThatThrownBy(shared::kill).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(shared::pause).isInstanceOf(UnsupportedOperationException.class);
        assertThat(shared.command("PING")).isEqualTo("PONG");
    }

    @Test
    void malformedConfigLineFailsAtOnce() {
        assertThatThrownBy(() -> TestRedis.builder().configLine("save \""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TestRedis.builder().configLine("  ")).isInstanceOf(IllegalArgumentException.class);
    }
}
