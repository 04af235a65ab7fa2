package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.engine.LockCommands.Attempted;
import io.distlock.redis.internal.engine.LockCommands.Granted;
import io.distlock.redis.internal.engine.Releaser;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.redlock.LateGrants;
import io.distlock.redis.internal.scripts.FenceFunctions;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.scripts.ScriptRunner;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node of a Redlock that grants a won acquisition only after the hold was released there (its commands ran out of
 * order) is released again, on a real server; without that, it would keep the key for the whole lease.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LateGrantsTest {

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final String key = "late-grant:" + UUID.randomUUID();
    private final String lockKey = "{distlock:" + key + "}";
    private final String token = OwnerTokens.newToken();

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void aGrantThatArrivesAfterTheReleaseIsReleasedAgain() {
        ScriptCall<Attempted> unanswered = unansweredAttemptOnTheNode(true);

        TestRedis.shared().command("SET", lockKey, token, "PX", "30000");
        unanswered.complete(System.nanoTime(), new Granted(1));

        await().atMost(Duration.ofSeconds(5))
                .until(() -> TestRedis.shared().command("EXISTS", lockKey).equals("0"));
    }

    @Test
    void withoutTheReleaseTheLateGrantKeepsTheKey() throws Exception {
        ScriptCall<Attempted> unanswered = unansweredAttemptOnTheNode(false);

        TestRedis.shared().command("SET", lockKey, token, "PX", "30000");
        unanswered.complete(System.nanoTime(), new Granted(1));

        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(TestRedis.shared().command("EXISTS", lockKey)).isEqualTo("1");
    }

    /**
     * A won vote in which this node had not answered; the hold is then released, unless told otherwise, before the
     * node runs the acquisition (which the test then does itself).
     */
    private ScriptCall<Attempted> unansweredAttemptOnTheNode(boolean release) {
        SingleNodeCommands node = new SingleNodeCommands(
                new ScriptRunner(clients.connectionFactory()),
                ReleaseChannels.classicOnly("distlock:released"),
                OwnerTokens.newInstanceId(),
                "late-grants-test",
                FenceFunctions.KEEP_FOR_EVER,
                Releaser.OTHERS_TURN_MILLIS,
                null,
                1);
        ScriptCall<Attempted> answer = ScriptCall.combined(key, "acquire", TimeUnit.SECONDS.toNanos(2), () -> "");
        LateGrants lateGrants = new LateGrants();
        lateGrants.expect(token, List.of(node), List.of(new LockCommands.Attempt(node, answer, key, lockKey, token)));
        if (release) {
            lateGrants.released(key, lockKey, token);
        }
        return answer;
    }
}
