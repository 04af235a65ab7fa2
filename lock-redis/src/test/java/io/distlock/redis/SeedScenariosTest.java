package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The checks the seed articles run by hand, as tests against a real Redis. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SeedScenariosTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void cleanUp() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void nineThreadsRaceForOneKeyAndExactlyOneWins() throws Exception {
        List<Lock> processes = List.of(clients.lock(), clients.lock(), clients.lock());
        for (int round = 0; round < 20; round++) {
            String key = "seed:race:" + UUID.randomUUID();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Optional<LockHandle>>> racers = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                Lock client = processes.get(i % 3);
                racers.add(threads.submit(() -> {
                    start.await();
                    return client.tryAcquire(key, LEASE);
                }));
            }
            start.countDown();
            int winners = 0;
            for (Future<Optional<LockHandle>> racer : racers) {
                if (racer.get(10, TimeUnit.SECONDS).isPresent()) {
                    winners++;
                }
            }
            assertThat(winners).as("winners of round %d", round).isEqualTo(1);
        }
    }

    @Test
    void twoIdGeneratorsBehindTheLockNeverHandOutTheSameId() throws Exception {
        String counter = "seed:ids:" + UUID.randomUUID();
        List<IdGenerator> generators = List.of(
                new IdGenerator(clients.template(), clients.lock(), counter),
                new IdGenerator(clients.template(), clients.lock(), counter));

        Set<Long> duplicates = generateConcurrently(generators, true);

        assertThat(duplicates).isEmpty();
    }

    @Test
    void twoIdGeneratorsWithoutTheLockDoHandOutTheSameId() throws Exception {
        String counter = "seed:ids:" + UUID.randomUUID();
        List<IdGenerator> generators = List.of(
                new IdGenerator(clients.template(), clients.lock(), counter),
                new IdGenerator(clients.template(), clients.lock(), counter));

        Set<Long> duplicates = generateConcurrently(generators, false);

        assertThat(duplicates)
                .as("the unprotected read-increment-write must race")
                .isNotEmpty();
    }

    /** Four threads per generator draw 150 ids each; returns the ids handed out more than once. */
    private Set<Long> generateConcurrently(List<IdGenerator> generators, boolean locked) throws Exception {
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        Set<Long> duplicates = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (IdGenerator generator : generators) {
            for (int t = 0; t < 4; t++) {
                workers.add(threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < 150; i++) {
                        long id = locked ? generator.nextLocked() : generator.nextUnlocked();
                        if (!seen.add(id)) {
                            duplicates.add(id);
                        }
                    }
                    return null;
                }));
            }
        }
        start.countDown();
        for (Future<?> worker : workers) {
            worker.get(50, TimeUnit.SECONDS);
        }
        return new HashSet<>(duplicates);
    }

    /** The seeds' generator: read the counter, add one, write it back; two round trips apart. */
    private record IdGenerator(StringRedisTemplate redis, Lock lock, String counter) {

        long nextLocked() throws InterruptedException {
            return lock.callWithLock(counter, LEASE, Duration.ofSeconds(30), this::nextUnlocked);
        }

        long nextUnlocked() {
            String current = redis.opsForValue().get(counter);
            long next = current == null ? 1 : Long.parseLong(current) + 1;
            redis.opsForValue().set(counter, Long.toString(next));
            return next;
        }
    }
}
