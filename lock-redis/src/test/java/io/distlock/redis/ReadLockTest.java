package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Readers and writers of one key, against a real Redis, through independent clients: what only Redis's read lock does
 * (fair writers, readers ahead of waiting writers, lease times in Redis, renewed readers). What every read-write lock
 * promises runs in the contract ({@code ReadWriteContract}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadLockTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String key = "read-write:" + UUID.randomUUID();

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void readersWaitingForAFairWriterHereAndInAnotherInstanceAreWokenByItsRelease() throws Exception {
        RedisLock writerInstance = clients.lock();
        LockHandle written = writerInstance.fair().tryAcquire(key, LONG).orElseThrow();
        Future<Optional<LockHandle>> here =
                threads.submit(() -> writerInstance.reading().tryAcquire(key, LONG, Duration.ofSeconds(20)));
        Future<Optional<LockHandle>> elsewhere =
                threads.submit(() -> clients.lock().reading().tryAcquire(key, LONG, Duration.ofSeconds(20)));
        // Once readers of both instances have tried, the key carries the mark of several instances' waiters. A new
        // subscription wakes every waiter of its instance, so both must be in place, and that wake-up over, first.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> TestRedis.shared()
                        .command("GET", "{distlock:" + key + "}")
                        .endsWith("*"));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Long.parseLong(TestRedis.shared()
                                .command("PUBSUB", "NUMSUB", "distlock:released")
                                .split("\n")[1])
                        >= 2);
        await().pollDelay(Duration.ofMillis(500)).until(() -> true);

        long released = System.nanoTime();
        written.release();

        assertThat(here.get(10, TimeUnit.SECONDS))
                .as("the reader of the writer's instance")
                .isPresent();
        assertThat(elsewhere.get(10, TimeUnit.SECONDS))
                .as("the reader of another instance")
                .isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .as("far less than the writer's 30 s lease")
                .isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void aFairWriterWaitingForReadersGetsTheKeyAsSoonAsTheLastOneLeavesHereOrElsewhere() throws Exception {
        RedisLock writerInstance = clients.lock();
        RedisLock otherInstance = clients.lock();
        long waitedNanos = 0;
        int rounds = 7;
        for (int round = 0; round < rounds; round++) {
            LockHandle here = writerInstance.reading().tryAcquire(key, LONG).orElseThrow();
            LockHandle elsewhere = otherInstance.reading().tryAcquire(key, LONG).orElseThrow();
            Future<Optional<LockHandle>> writer =
                    threads.submit(() -> writerInstance.fair().tryAcquire(key, LONG, Duration.ofSeconds(20)));
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> TestRedis.shared()
                            .command("HEXISTS", "{distlock:" + key + "}", "~w")
                            .equals("1"));

            boolean lastHere = round % 2 == 1;
            (lastHere ? elsewhere : here).release();
            long released = System.nanoTime();
            (lastHere ? here : elsewhere).release();
            LockHandle written = writer.get(10, TimeUnit.SECONDS).orElseThrow();
            waitedNanos += System.nanoTime() - released;
            written.release();
        }

        System.out.printf(
                "A fair writer got the key %d ms after the last reader left, over %d rounds%n",
                TimeUnit.NANOSECONDS.toMillis(waitedNanos), rounds);
        // A waiter that looked only at its heartbeats, every 500 ms, would wait 250 ms a round on average.
        assertThat(Duration.ofNanos(waitedNanos))
                .as("the writer's waits after the last reader left, over %d rounds", rounds)
                .isLessThan(Duration.ofSeconds(1));
    }

    /**
     * The reader counts its lease from when it sent the script, so Redis must not end it sooner. Redis's {@code TIME}
     * read just before the acquisition bounds that send time from below; in ms rounded down, as the scripts read it,
     * the lease would end up to 1 ms early most of the time.
     */
    @Test
    void aReadersLeaseInRedisLastsAtLeastTheLeaseFromBeforeItWasAsked() {
        ReadLock reader = clients.lock().reading();
        long leaseMillis = 5_000;
        for (int i = 0; i < 50; i++) {
            String readKey = key + ":" + i;
            String[] clock = TestRedis.shared().command("TIME").split("\n");
            long askedMicros = Long.parseLong(clock[0]) * 1_000_000 + Long.parseLong(clock[1]);
            LockHandle read = reader.tryAcquire(readKey, Lease.fixed(Duration.ofMillis(leaseMillis)))
                    .orElseThrow();
            long endMillis =
                    Long.parseLong(TestRedis.shared().command("HGET", "{distlock:" + readKey + "}", read.ownerToken()));

            assertThat(endMillis * 1000)
                    .as("lease end, in µs")
                    .isGreaterThanOrEqualTo(askedMicros + leaseMillis * 1000);
            read.release();
        }
    }

    @Test
    void aWaitingWriterKeepsNewReadersOutUnlessTheyGoAheadOfIt() throws Exception {
        LockHandle reading = clients.lock().reading().tryAcquire(key, LONG).orElseThrow();
        RedisLock writer = clients.lock();
        Future<Optional<LockHandle>> waiting =
                threads.submit(() -> writer.tryAcquire(key, LONG, Duration.ofSeconds(20)));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> TestRedis.shared()
                        .command("HEXISTS", "{distlock:" + key + "}", "~w")
                        .equals("1"));

        assertThat(clients.lock().reading().tryAcquire(key, LONG))
                .as("yields to the waiting writer")
                .isEmpty();
        LockHandle ahead = clients.lock()
                .reading()
                .aheadOfWaitingWriters()
                .tryAcquire(key, LONG)
                .orElseThrow();
        reading.release();
        ahead.release();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isPresent();
    }

    /**
     * The last reader to leave a key that a writer waits for reserves it for writers ({@code ~}, see the release
     * script): every writer, plain or fair, of any instance takes it at once, and no reader does.
     */
    @Test
    void aKeyReservedForWritersGoesToAPlainOrFairWriterButToNoReader() {
        String lockKey = "{distlock:" + key + "}";
        TestRedis.shared().command("SET", lockKey, "~", "PX", "10000");

        assertThat(clients.lock().reading().tryAcquire(key, LONG))
                .as("a reader")
                .isEmpty();
        clients.lock().fair().tryAcquire(key, LONG).orElseThrow().release();
        TestRedis.shared().command("SET", lockKey, "~", "PX", "10000");
        assertThat(clients.lock().tryAcquire(key, LONG)).as("a plain writer").isPresent();
    }

    @Test
    void aRenewedReaderOutlivesItsWatchdogLeaseAndALostOneIsReported() throws Exception {
        // A watchdog lease of seconds, held for more than two: renewals outlive it on a busy machine, whose scheduling
        // has been seen to stall a renewal for about a second.
        ReadLock renewed = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(1500)))
                .reading();
        LockHandle kept = renewed.tryAcquire(key).orElseThrow();
        LockHandle lost = clients.lock()
                .reading()
                .tryAcquire(key, Lease.fixed(Duration.ofMillis(300)))
                .orElseThrow();

        await().pollDelay(Duration.ofMillis(3500)).atMost(Duration.ofSeconds(5)).until(() -> true);

        assertThat(kept.isLost()).isFalse();
        assertThat(kept.isHeld()).isTrue();
        assertThat(clients.lock().tryAcquire(key, LONG))
                .as("a writer is still kept out")
                .isEmpty();
        assertThat(lost.isLost()).isTrue();
        assertThatThrownBy(lost::release).isInstanceOf(LockLostException.class);
        kept.release();
    }
}
