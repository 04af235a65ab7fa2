package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * Every lock key lives in one Redis Cluster hash tag, {@code {prefix + key}}, so that a key's lock and fencing counter
 * share a slot and different keys spread over the cluster. A <code>}</code> in a key would end the tag early, so that
 * every key that starts alike ({@code order:7}, {@code order:7}x}, ...) lands in one slot: such a key is refused
 * before anything is sent, on every way to take a key. A <code>{</code> is plain text.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HashTagKeysTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(10));

    private final TestRedis redis = TestRedis.shared();
    private final RedisClients clients = new RedisClients(redis);
    private final String base = "hash-tag:" + UUID.randomUUID();

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void aKeyWithAClosingBraceIsRefusedOnEveryWayToTakeItAndNothingIsWritten() {
        RedisLock lock = clients.lock();
        String key = base + "}:shard-7";
        List<ThrowingConsumer<Lock>> takes = List.of(
                taking -> taking.tryAcquire(key, LEASE),
                taking -> taking.tryAcquire(key, LEASE, Duration.ofMillis(10)),
                taking -> {
                    try {
                        taking.tryAcquireAsync(key, LEASE, Duration.ZERO)
                                .toCompletableFuture()
                                .join();
                    } catch (CompletionException refused) {
                        throw refused.getCause();
                    }
                },
                taking -> taking.asJavaLock(key, LEASE),
                taking -> taking.tryAcquireAll(List.of(base + ":other", key), LEASE, Duration.ZERO));

        for (Lock taking : List.<Lock>of(lock, lock.fair(), lock.reading())) {
            for (ThrowingConsumer<Lock> take : takes) {
                assertThatThrownBy(() -> take.accept(taking))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("must not contain '}'")
                        .hasMessageContaining("Redis Cluster hash tag")
                        .hasMessageContaining("at index " + base.length())
                        .hasMessageNotContaining(base);
            }
            // A key taken before the refused one of a set is given back.
            assertThat(lock.tryAcquire(base + ":other", LEASE)).hasValueSatisfying(LockHandle::release);
        }
        assertThatThrownBy(() -> lock.keyState(key)).isInstanceOf(IllegalArgumentException.class);
        assertThat(redis.command("KEYS", "*" + base + "}*")).isEmpty();
    }

    @Test
    void anOpeningBraceIsPlainTextAndTheWholeKeyChoosesTheSlot() {
        RedisLock lock = clients.lock();
        String key = base + "{7";

        try (LockHandle held = lock.tryAcquire(key, LEASE).orElseThrow()) {
            String lockKey = "{distlock:" + key + "}";
            assertThat(redis.command("GET", lockKey)).isEqualTo(held.ownerToken());
            assertThat(SlotHash.getSlot(lockKey)).isEqualTo(SlotHash.getSlot("distlock:" + key));
        }
    }
}
