package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG;
import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static io.distlock.tck.contract.ContractTimes.SHORT_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a read-write lock promises ({@link Kind#READ}): readers of a key hold it together, a writer (the lock itself)
 * holds it alone, a waiting writer keeps new readers out, every read is a hold with a lease, an owner and a fencing
 * token, and a reader's or writer's scope re-enters as {@link io.distlock.Lock} documents it. {@link LockContract} runs
 * it for each implementation whose clients offer read locks; elsewhere its cases are skipped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // cases hold scopes in try-with-resources blocks that never name them
public interface ReadWriteContract extends ContractSubject {

    /**
     * A connected client, skipping the case where it offers no read locks.
     *
     * @return the client, whose {@code kind(Kind.READ)} is present
     */
    private Lock readWriteClient() {
        Lock client = connectedClient();
        assumeTrue(client.kind(Kind.READ).isPresent(), client + " offers no read locks");
        return client;
    }

    private static Lock reading(Lock client) {
        return client.kind(Kind.READ).orElseThrow();
    }

    @Test
    default void readersOfSeveralClientsHoldAKeyTogetherEachWithAHigherFencingToken() {
        String key = key("rw");
        LockHandle first =
                reading(readWriteClient()).tryAcquire(key, LONG_LEASE).orElseThrow();
        LockHandle second =
                reading(readWriteClient()).tryAcquire(key, LONG_LEASE).orElseThrow();

        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(first.isHeld()).isTrue();
        assertThat(second.isHeld()).isTrue();
        assertThat(second.ownerToken()).isNotEqualTo(first.ownerToken());
    }

    @Test
    default void aWriterIsRefusedWhileReadersHoldAndGetsTheKeySoonAfterTheLastLeaves() throws Exception {
        String key = key("rw");
        LockHandle first =
                reading(readWriteClient()).tryAcquire(key, LONG_LEASE).orElseThrow();
        LockHandle second =
                reading(readWriteClient()).tryAcquire(key, LONG_LEASE).orElseThrow();
        Lock writer = readWriteClient();
        assertThat(writer.tryAcquire(key, LONG_LEASE))
                .as("refused while readers hold")
                .isEmpty();
        Future<Optional<LockHandle>> waiting = contractThreads().submit(() -> writer.tryAcquire(key, LONG_LEASE, LONG));

        first.release();
        await().during(SHORT_WAIT).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
        long released = System.nanoTime();
        second.release();

        LockHandle written = waiting.get(20, TimeUnit.SECONDS).orElseThrow();
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .as("woken by the last reader's release, long before the wait of %s ends", LONG)
                .isLessThan(LONG.dividedBy(2));
        assertThat(written.fencingToken()).isGreaterThan(second.fencingToken());
    }

    @Test
    default void aReaderIsRefusedWhileAWriterHoldsAndIsWokenByItsRelease() throws Exception {
        String key = key("rw");
        LockHandle written = readWriteClient().tryAcquire(key, LONG_LEASE).orElseThrow();
        Lock reader = reading(readWriteClient());
        assertThat(reader.tryAcquire(key, LONG_LEASE))
                .as("refused while a writer holds")
                .isEmpty();
        Future<Optional<LockHandle>> waiting = contractThreads().submit(() -> reader.tryAcquire(key, LONG_LEASE, LONG));
        await().during(SHORT_WAIT).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());

        long released = System.nanoTime();
        written.release();

        assertThat(waiting.get(20, TimeUnit.SECONDS)).isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .as("woken by the writer's release, long before the wait of %s ends", LONG)
                .isLessThan(LONG.dividedBy(2));
    }

    @Test
    default void aWaitingWriterKeepsNewReadersOut() throws Exception {
        String key = key("rw");
        LockHandle reading =
                reading(readWriteClient()).tryAcquire(key, LONG_LEASE).orElseThrow();
        Lock writer = readWriteClient();
        Lock lateReader = reading(readWriteClient());
        Future<Optional<LockHandle>> waiting = contractThreads().submit(() -> writer.tryAcquire(key, LONG_LEASE, LONG));

        awaitNewReadersKeptOut(lateReader, key);
        assertThat(waiting).as("the writer still waits for the first reader").isNotDone();
        reading.release();

        assertThat(waiting.get(20, TimeUnit.SECONDS)).isPresent();
    }

    @Test
    default void aReaderBehindAWaitingWriterThatNeverReleasesGetsTheKeyWhenTheWritersLeaseEnds() throws Exception {
        String key = key("rw");
        LockHandle first =
                reading(readWriteClient()).tryAcquire(key, LONG_LEASE).orElseThrow();
        Lock writer = readWriteClient();
        Lock lateReader = reading(readWriteClient());
        Future<Optional<LockHandle>> writing =
                contractThreads().submit(() -> writer.tryAcquire(key, Lease.fixed(Duration.ofSeconds(1)), LONG));
        awaitNewReadersKeptOut(lateReader, key);
        Future<Optional<LockHandle>> reading =
                contractThreads().submit(() -> lateReader.tryAcquire(key, LONG_LEASE, LONG));
        await().during(SHORT_WAIT).atMost(Duration.ofSeconds(5)).until(() -> !reading.isDone());

        first.release();
        LockHandle never = writing.get(20, TimeUnit.SECONDS).orElseThrow();
        long written = System.nanoTime();

        assertThat(reading.get(20, TimeUnit.SECONDS)).isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - written))
                .as("the reader looks again when the writer's lease of 1 s ends, long before its wait of %s", LONG)
                .isLessThan(LONG.dividedBy(2));
        await().atMost(Duration.ofSeconds(10)).until(never::isLost);
    }

    @Test
    default void aReaderThatNeverReleasesFreesItsShareWhenItsLeaseEnds() throws Exception {
        String key = key("rw");
        LockHandle never = reading(readWriteClient())
                .tryAcquire(key, Lease.fixed(Duration.ofSeconds(1)))
                .orElseThrow();
        Lock writer = readWriteClient();

        assertThat(writer.tryAcquire(key, LONG_LEASE)).isEmpty();
        LockHandle written = writer.tryAcquire(key, LONG_LEASE, LONG).orElseThrow();

        assertThat(written.isHeld()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(never::isLost);
        assertThatThrownBy(never::release).isInstanceOf(LockLostException.class);
    }

    @Test
    default void aReadInsideAWriteScopeReEntersTheWriteHold() {
        String key = key("rw");
        Lock lock = readWriteClient();
        Lock other = readWriteClient();
        LockHandle written = lock.tryAcquire(key, LONG_LEASE).orElseThrow();
        LockHandle read;

        try (LockContext.Scope scope = LockContext.enter(written)) {
            read = reading(lock).tryAcquire(key, LONG_LEASE).orElseThrow();
        }
        assertThat(read.fencingToken()).as("the write hold's").isEqualTo(written.fencingToken());
        written.release();

        assertThat(read.isHeld()).as("the nested handle keeps the hold").isTrue();
        assertThat(other.tryAcquire(key, LONG_LEASE)).as("still exclusive").isEmpty();
        assertThat(reading(other).tryAcquire(key, LONG_LEASE))
                .as("still exclusive")
                .isEmpty();
        read.release();
        assertThat(reading(other).tryAcquire(key, LONG_LEASE)).isPresent();
    }

    @Test
    default void aWriteInsideAReadScopeFailsAtOnce() {
        String key = key("rw");
        Lock lock = readWriteClient();
        LockHandle read = reading(lock).tryAcquire(key, LONG_LEASE).orElseThrow();

        try (LockContext.Scope scope = LockContext.enter(read)) {
            assertThatThrownBy(() -> lock.tryAcquire(key, LONG_LEASE, LONG))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("held for reading in this scope");
        }
        assertThat(read.isHeld()).isTrue();
    }

    @Test
    default void aReaderReEntersItsOwnShare() {
        String key = key("rw");
        Lock reader = reading(readWriteClient());
        LockHandle outer = reader.tryAcquire(key, LONG_LEASE).orElseThrow();

        try (LockContext.Scope scope = LockContext.enter(outer)) {
            LockHandle inner = reader.tryAcquire(key, LONG_LEASE).orElseThrow();
            assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
            inner.release();
        }
        assertThat(outer.isHeld()).isTrue();
    }

    /**
     * Waits until a writer waits for the key: readers that came before it queued may still share, and once it waits
     * none may. A read this takes meanwhile is released at once.
     */
    private static void awaitNewReadersKeptOut(Lock reader, String key) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Optional<LockHandle> read = reader.tryAcquire(key, LONG_LEASE);
            read.ifPresent(LockHandle::release);
            return read.isEmpty();
        });
    }

    /**
     * Threads of three clients read and write one key at random: readers overlap each other, and nobody overlaps a
     * writer. The same work without the locks lets writers overlap, so the check can fail.
     */
    @Test
    default void readersOverlapEachOtherButNeverAWriter() throws Exception {
        List<Lock> clients = List.of(readWriteClient(), readWriteClient(), readWriteClient());
        String key = key("rw");

        ReadWriteTally locked = readAndWrite(clients, key, true);
        assertThat(locked.violations).hasValue(0);
        assertThat(locked.mostReadersAtOnce)
                .as("readers really held the key together")
                .hasValueGreaterThan(1);
        assertThat(locked.writes).hasValueGreaterThan(0);

        ReadWriteTally unlocked = readAndWrite(clients, key, false);
        assertThat(unlocked.violations).as("the unlocked path must race").hasValueGreaterThan(0);
    }

    private ReadWriteTally readAndWrite(List<Lock> clients, String key, boolean withLocks) throws Exception {
        ReadWriteTally tally = new ReadWriteTally();
        List<Future<?>> workers = new ArrayList<>();
        for (int client = 0; client < clients.size(); client++) {
            Lock lock = clients.get(client);
            for (int thread = 0; thread < 3; thread++) {
                SplittableRandom random = new SplittableRandom(client * 7L + thread);
                workers.add(contractThreads().submit(() -> {
                    for (int round = 0; round < 30; round++) {
                        boolean write = random.nextInt(4) == 0;
                        if (withLocks) {
                            try (LockHandle held = (write ? lock : reading(lock)).acquire(key, LONG_LEASE)) {
                                tally.section(write);
                            }
                        } else {
                            tally.section(write);
                        }
                    }
                    return null;
                }));
            }
        }
        for (Future<?> worker : workers) {
            worker.get(40, TimeUnit.SECONDS);
        }
        return tally;
    }

    /** Who is inside the key's sections at once, by side. */
    final class ReadWriteTally {

        private final AtomicInteger readers = new AtomicInteger();
        private final AtomicInteger writers = new AtomicInteger();
        private final AtomicInteger violations = new AtomicInteger();
        private final AtomicInteger mostReadersAtOnce = new AtomicInteger();
        private final AtomicInteger writes = new AtomicInteger();

        void section(boolean write) throws InterruptedException {
            if (write) {
                writes.incrementAndGet();
                if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                    violations.incrementAndGet();
                }
                Thread.sleep(2);
                writers.decrementAndGet();
            } else {
                mostReadersAtOnce.accumulateAndGet(readers.incrementAndGet(), Math::max);
                if (writers.get() != 0) {
                    violations.incrementAndGet();
                }
                Thread.sleep(2);
                readers.decrementAndGet();
            }
        }
    }
}
