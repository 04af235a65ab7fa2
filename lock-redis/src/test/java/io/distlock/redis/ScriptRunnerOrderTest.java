package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.scripts.ScriptRunner;
import io.distlock.test.redis.TestRedis;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Scripts reach Redis in the order they were started, also while the first connection is still being made: a release
 * that overtook its acquisition would leave the key held until its lease ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScriptRunnerOrderTest {

    private static final RedisScript<Long> APPEND =
            RedisScript.of("return redis.call('RPUSH', KEYS[1], ARGV[1])", Long.class);

    private static final int SCRIPTS = 50;

    private static TestRedis redis;

    private final String key = "script-order:" + UUID.randomUUID();

    @BeforeAll
    static void startServer() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopServer() {
        redis.close();
    }

    @Test
    void scriptsStartedBeforeTheFirstConnectionAnswersRunInTheOrderTheyWereStarted() throws Exception {
        try (RedisClients clients = new RedisClients(redis)) {
            ScriptRunner runner = new ScriptRunner(clients.connectionFactory());
            List<ScriptCall<Object>> calls = new ArrayList<>();
            // Loaded first: a NOSCRIPT answer makes Spring Data Redis send the script again with EVAL, and those
            // second sends do not keep the order (what covers that is in LateGrants and Attempt.abandon).
            redis.command("SCRIPT", "LOAD", APPEND.getScriptAsString());
            // Frozen, the server accepts the connection but answers nothing: every script waits for the handshake.
            redis.pause();
            try {
                for (int i = 0; i < SCRIPTS; i++) {
                    calls.add(runner.run(key, "append to", APPEND, List.of(key), List.of(Integer.toString(i)), v -> v));
                }
            } finally {
                redis.resume();
            }
            for (ScriptCall<Object> call : calls) {
                call.answer().get(10, TimeUnit.SECONDS);
            }

            assertThat(redis.command("LRANGE", key, "0", "-1").split("\n"))
                    .containsExactly(IntStream.range(0, SCRIPTS)
                            .mapToObj(Integer::toString)
                            .toArray(String[]::new));
        }
    }
}
