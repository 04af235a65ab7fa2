package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.OnLockLost;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A key that a client chose, with line breaks in it, cannot forge a log line: wherever distlock puts a key into a log
 * line or an exception's message, its control characters appear as escapes.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyEscapingTest {

    private static final String FORGED = "12:00:00.000 ERROR [main] forged - the administrator logged in";

    private final ApplicationContextRunner runner =
            DistlockContexts.onSharedRedis().withBean(Orders.class);

    private final String key = "order:" + UUID.randomUUID() + "\r\n" + FORGED;

    @Test
    void aLostLockIsLoggedWithTheKeysLineBreaksEscaped(CapturedOutput output) {
        runner.run(context -> {
            context.getBean(Orders.class).outliveTheLease(key);

            await().atMost(Duration.ofSeconds(30)).until(() -> output.getOut().contains("was lost"));
            assertThat(output.getOut()).contains("\\r\\n" + FORGED).doesNotContain("\n" + FORGED);
        });
    }

    @Test
    void aBusyKeysExceptionHasItsLineBreaksEscaped() {
        runner.run(context -> {
            try (LockHandle held = context.getBean(Lock.class)
                    .tryAcquire(key, Lease.fixed(Duration.ofSeconds(10)))
                    .orElseThrow()) {
                Throwable busy =
                        catchThrowable(() -> context.getBean(Orders.class).placeNow(key));

                assertThat(busy).isInstanceOf(LockNotAcquiredException.class);
                assertThat(busy.getMessage()).contains("\\r\\n" + FORGED).doesNotContain("\r", "\n");
                assertThat(((LockNotAcquiredException) busy).key()).isEqualTo(key);
            }
        });
    }

    /** Orders locked by a key that comes straight from the request. */
    static class Orders {

        @DistributedLock(key = "#key", lease = "500ms", onLost = OnLockLost.LOG)
        public void outliveTheLease(String key) {
            // Read here: the lock context is this thread's, and Awaitility polls on a thread of its own.
            LockHandle held = LockContext.current(key).orElseThrow();
            await().atMost(Duration.ofSeconds(10)).until(held::isLost);
        }

        @DistributedLock(key = "#key", waitSeconds = 0)
        public void placeNow(String key) {}
    }
}
