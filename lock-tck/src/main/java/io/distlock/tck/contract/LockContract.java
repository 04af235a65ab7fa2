package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LOADED_MACHINE_MARGIN;
import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link Lock} implementation promises, as a suite that an implementation's test extends. This
 * class holds the basics (exclusion, ownership, fencing, arguments, work run under a lock); the rest comes in parts
 * that it runs too, each on one theme: {@link ReentryContract}, {@link LeaseContract}, {@link WaitingContract}, {@link
 * JavaLockViewContract}, {@link StoreOutageContract}, {@link MultiKeyContract}, {@link MultiKeyContentionContract},
 * {@link AsyncContract}, {@link MinimumHoldContract}, {@link HolderContract} and, for clients that offer semaphores,
 * {@link SemaphoreContract}, for those that offer read locks, {@link ReadWriteContract}, and for those that offer a
 * fair lock, {@link FairContract}, and for those that offer path locks, {@link PathContract}.
 *
 * <p>Each {@link #newClient()} must be an independent client of the same store (its own connections), standing for
 * another process. Keys are unique per test. A backend whose test can make its store unreachable overrides {@link
 * #storeOutage()}; elsewhere the outage cases are skipped. One whose test can remove a held key from its store behind
 * the client's back overrides {@link #removeBehindTheClientsBack(String)}; elsewhere that case is skipped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // cases hold locks and scopes in try-with-resources blocks that never name them
public abstract class LockContract
        implements ReentryContract,
                LeaseContract,
                WaitingContract,
                JavaLockViewContract,
                StoreOutageContract,
                MultiKeyContract,
                MultiKeyContentionContract,
                AsyncContract,
                MinimumHoldContract,
                HolderContract,
                SemaphoreContract,
                ReadWriteContract,
                FairContract,
                PathContract {

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private String keyBase = "";

    /** For subclasses, which provide the clients. */
    protected LockContract() {}

    /**
     * Creates an independent client of the store under test; the suite never closes it, the subclass does.
     *
     * @return a new lock client
     */
    @Override
    public abstract Lock newClient();

    @BeforeEach
    void nameKeys(TestInfo test) {
        keyBase = "contract:" + test.getTestMethod().orElseThrow().getName() + ":" + UUID.randomUUID() + ":";
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A key unique to this test run. */
    @Override
    public String key(String name) {
        return keyBase + name;
    }

    /** The threads of this test, stopped after it. */
    @Override
    public ExecutorService contractThreads() {
        return threads;
    }

    @Test
    void freeLockIsTakenAtOnceAndHeldLockFailsAtOnce() {
        Lock first = connectedClient();
        Lock second = connectedClient();
        String key = key("k");

        LockHandle held = first.tryAcquire(key, LONG_LEASE).orElseThrow();
        long start = System.nanoTime();
        Optional<LockHandle> refused = onOtherThread(() -> second.tryAcquire(key, LONG_LEASE));

        assertThat(refused).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(Duration.ofSeconds(1).plus(LOADED_MACHINE_MARGIN));
        assertThat(held.isHeld()).isTrue();
        held.release();
        assertThat(second.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    @Test
    void onlyTheOwnerReleasesAndReleasingTwiceIsAnError() {
        Lock owner = connectedClient();
        Lock other = connectedClient();
        String key = key("k");
        LockHandle held = owner.tryAcquire(key, LONG_LEASE).orElseThrow();

        assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
        held.release();

        assertThatThrownBy(held::release)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already released");
        held.close();
        assertThat(held.isHeld()).isFalse();
        assertThat(other.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    @Test
    void fencingTokensStrictlyIncreaseAcrossClients() {
        Lock first = connectedClient();
        Lock second = connectedClient();
        String key = key("k");
        long previous = 0;
        for (int i = 0; i < 20; i++) {
            Lock client = i % 2 == 0 ? first : second;
            try (LockHandle held = client.tryAcquire(key, LONG_LEASE).orElseThrow()) {
                assertThat(held.fencingToken()).isGreaterThan(previous);
                previous = held.fencingToken();
            }
        }
    }

    @Test
    void handleCanBeReleasedFromAnotherThread() throws Exception {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String key = key("k");
        LockHandle held = lock.tryAcquire(key, LONG_LEASE).orElseThrow();

        CompletableFuture.runAsync(held::release, threads).get(10, TimeUnit.SECONDS);

        assertThat(other.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    @Test
    void callbackReleasesAfterSuccessAndAfterFailure() throws Exception {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String key = key("k");

        String result = lock.callWithLock(key, LONG_LEASE, Duration.ZERO, () -> {
            assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
            return "done";
        });
        assertThat(result).isEqualTo("done");

        assertThatThrownBy(() -> lock.runWithLock(key, LONG_LEASE, Duration.ZERO, () -> {
                    throw new java.io.IOException("work failed");
                }))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("work failed");
        assertThat(other.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    @Test
    void callbackDoesNotRunWithoutTheLock() {
        Lock holder = connectedClient();
        Lock lock = connectedClient();
        String key = key("k");
        holder.tryAcquire(key, LONG_LEASE).orElseThrow();
        AtomicBoolean ran = new AtomicBoolean();

        assertThatThrownBy(() -> lock.runWithLock(key, LONG_LEASE, Duration.ofMillis(100), () -> ran.set(true)))
                .isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining(key)
                .satisfies(
                        e -> assertThat(((LockNotAcquiredException) e).waited()).isEqualTo(Duration.ofMillis(100)));
        assertThat(ran).isFalse();
    }

    @Test
    void mutualExclusionHoldsAcrossThreadsAndClients() throws Exception {
        Lock first = connectedClient();
        Lock second = connectedClient();
        String key = key("counter");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        int threadCount = 8;
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            Lock client = t % 2 == 0 ? first : second;
            workers.add(threads.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    try (LockHandle held = client.acquire(key, LONG_LEASE)) {
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        entries.incrementAndGet();
                        Thread.yield();
                        inside.decrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get(60, TimeUnit.SECONDS);
        }

        assertThat(entries).hasValue(threadCount * 40);
        assertThat(overlaps).hasValue(0);
    }

    @Test
    void invalidArgumentsNameWhatIsWrong() {
        Lock lock = connectedClient();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(null))
                .withMessageContaining("key");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(" "))
                .withMessageContaining("blank");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire("x".repeat(Lock.MAX_KEY_LENGTH + 1)))
                .withMessageContaining("at most " + Lock.MAX_KEY_LENGTH);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(key("k"), (Lease) null))
                .withMessageContaining("lease");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(key("k"), Duration.ofMillis(-1)))
                .withMessageContaining("wait");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(key("k"), LONG_LEASE, null))
                .withMessageContaining("wait");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Lease.fixed(Duration.ZERO))
                .withMessageContaining("at least 1 ms");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Lease.fixed(Duration.ofSeconds(-5)))
                .withMessageContaining("at least 1 ms");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Lease.fixed(Duration.ofDays(400)))
                .withMessageContaining("at most");
        assertThat(lock.tryAcquire(key("k"), LONG_LEASE)).isPresent();
    }
}
