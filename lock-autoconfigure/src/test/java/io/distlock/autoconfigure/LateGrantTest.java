package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.LockLostException;
import io.distlock.tck.net.TcpProxy;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An annotated method is never called on a grant that reached the instance after its own lease ran out: with 400 ms
 * each way between the application and Redis, a 300 ms lease is over when its grant arrives. The controls, the same
 * methods with a 10 s lease on the same slow network, run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LateGrantTest {

    private final String id = UUID.randomUUID().toString();

    @Test
    void neitherAPlainNorAnAsynchronousMethodStartsOnALateGrant() throws Exception {
        try (TestRedis redis = TestRedis.start();
                TcpProxy network = TcpProxy.start(redis.host(), redis.port())) {
            DistlockContexts.runner()
                    .withPropertyValues("spring.data.redis.port=" + network.port(), "spring.data.redis.timeout=5s")
                    .withBean(Jobs.class)
                    .run(context -> {
                        Jobs jobs = context.getBean(Jobs.class);
                        jobs.plainInTime(id + ":warm-up");
                        network.latency(Duration.ofMillis(400));

                        assertThatThrownBy(() -> jobs.plainLate(id)).isInstanceOf(LockLostException.class);
                        CompletableFuture<String> stage = jobs.stageLate(id);
                        assertThatThrownBy(() -> stage.get(30, TimeUnit.SECONDS))
                                .isInstanceOf(ExecutionException.class)
                                .hasCauseInstanceOf(LockLostException.class);
                        assertThat(jobs.runs()).isZero();

                        assertThat(jobs.plainInTime(id)).isEqualTo("ran");
                        assertThat(jobs.stageInTime(id).get(30, TimeUnit.SECONDS))
                                .isEqualTo("ran");
                        assertThat(jobs.runs()).isEqualTo(2);
                        network.latency(Duration.ZERO);
                    });
        }
    }

    /** Read through its methods: the bean is a class proxy, whose own fields are empty. */
    static class Jobs {

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return runs.get();
        }

        @DistributedLock(key = "'late:plain:' + #id", lease = "300ms", waitTime = "5s")
        String plainLate(String id) {
            runs.incrementAndGet();
            return "ran";
        }

        @DistributedLock(key = "'late:stage:' + #id", lease = "300ms", waitTime = "5s")
        CompletableFuture<String> stageLate(String id) {
            runs.incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        @DistributedLock(key = "'late:plain-in-time:' + #id", lease = "10s", waitTime = "5s")
        String plainInTime(String id) {
            if (!id.endsWith(":warm-up")) {
                runs.incrementAndGet();
            }
            return "ran";
        }

        @DistributedLock(key = "'late:stage-in-time:' + #id", lease = "10s", waitTime = "5s")
        CompletableFuture<String> stageInTime(String id) {
            runs.incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }
    }
}
