package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG;
import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static io.distlock.tck.contract.ContractTimes.SHORT_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.Semaphores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a semaphore promises ({@link Kind#SEMAPHORE}): up to its count of owners hold a key at once, every permit is a
 * hold with a lease, an owner and a fencing token, a waiter is woken when a permit comes back, a dead holder's permit
 * comes back at the end of its lease, and a lowered count keeps the holds beyond it until they end. {@link
 * LockContract} runs it for each implementation whose clients offer semaphores; elsewhere its cases are skipped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public interface SemaphoreContract extends ContractSubject {

    /** How many callers the race cases run at once, beside a count of {@link #RACE_PERMITS}. */
    int RACE_THREADS = 8;

    /** The count of the race cases' semaphore. */
    int RACE_PERMITS = 3;

    /**
     * A connected client's semaphore of a count, skipping the case where the client offers no semaphores.
     *
     * @param permits the count
     * @return the semaphore
     */
    private Lock semaphore(int permits) {
        Lock client = connectedClient();
        Optional<Semaphores> semaphores = client.kind(Kind.SEMAPHORE);
        assumeTrue(semaphores.isPresent(), client + " offers no semaphores");
        return semaphores.orElseThrow().permits(permits);
    }

    @Test
    default void asManyOwnersAsPermitsHoldAKeyAndTheNextIsRefused() {
        String key = key("s");
        List<Lock> clients = List.of(semaphore(3), semaphore(3), semaphore(3), semaphore(3));
        List<LockHandle> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(clients.get(i).tryAcquire(key, LONG_LEASE).orElseThrow());
        }

        assertThat(clients.get(3).tryAcquire(key, LONG_LEASE)).isEmpty();
        assertThat(held).allMatch(LockHandle::isHeld);

        held.get(1).release();
        assertThat(clients.get(3).tryAcquire(key, LONG_LEASE)).isPresent();
    }

    @Test
    default void aWaiterIsWokenWhenAPermitComesBack() throws Exception {
        String key = key("s");
        Lock holder = semaphore(2);
        Lock waiter = semaphore(2);
        LockHandle first = holder.tryAcquire(key, LONG_LEASE).orElseThrow();
        holder.tryAcquire(key, LONG_LEASE).orElseThrow();

        Future<Optional<LockHandle>> waiting = contractThreads().submit(() -> waiter.tryAcquire(key, LONG_LEASE, LONG));
        await().during(SHORT_WAIT).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
        long released = System.nanoTime();
        first.release();

        assertThat(waiting.get(20, TimeUnit.SECONDS)).isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .as("woken by the release, long before the wait of %s ends", LONG)
                .isLessThan(LONG.dividedBy(2));
    }

    @Test
    default void theWholeWaitIsSpentWhenNoPermitComesBack() throws InterruptedException {
        String key = key("s");
        Lock holder = semaphore(1);
        Lock waiter = semaphore(1);
        holder.tryAcquire(key, LONG_LEASE).orElseThrow();

        long start = System.nanoTime();
        assertThat(waiter.tryAcquire(key, LONG_LEASE, SHORT_WAIT)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SHORT_WAIT);
    }

    @Test
    default void aDeadHoldersPermitComesBackWhenItsLeaseEnds() throws InterruptedException {
        String key = key("s");
        Lock live = semaphore(2);
        Lock dead = semaphore(2);
        Lock waiter = semaphore(2);
        LockHandle kept = live.tryAcquire(key, LONG_LEASE).orElseThrow();
        LockHandle never =
                dead.tryAcquire(key, Lease.fixed(Duration.ofSeconds(1))).orElseThrow();

        assertThat(waiter.tryAcquire(key, LONG_LEASE)).isEmpty();
        assertThat(waiter.tryAcquire(key, LONG_LEASE, LONG)).isPresent();
        assertThat(kept.isHeld()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(never::isLost);
        assertThatThrownBy(never::release).isInstanceOf(LockLostException.class);
    }

    @Test
    default void onlyTheOwnerReleasesItsPermitAndOnlyOnce() {
        String key = key("s");
        Lock owner = semaphore(1);
        Lock other = semaphore(1);
        LockHandle held = owner.tryAcquire(key, LONG_LEASE).orElseThrow();

        held.release();
        assertThatThrownBy(held::release)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already released");
        LockHandle next = other.tryAcquire(key, LONG_LEASE).orElseThrow();
        assertThat(next.ownerToken()).isNotEqualTo(held.ownerToken());
        assertThat(next.isHeld()).isTrue();
    }

    @Test
    default void everyPermitHasAFencingTokenAboveTheOnesGrantedBefore() {
        String key = key("s");
        Lock first = semaphore(2);
        Lock second = semaphore(2);
        long previous = 0;
        LockHandle kept = first.tryAcquire(key, LONG_LEASE).orElseThrow();
        previous = kept.fencingToken();
        for (int i = 0; i < 10; i++) {
            try (LockHandle held =
                    (i % 2 == 0 ? first : second).tryAcquire(key, LONG_LEASE).orElseThrow()) {
                assertThat(held.fencingToken()).isGreaterThan(previous);
                previous = held.fencingToken();
            }
        }
        kept.release();
    }

    @Test
    default void anExtendedPermitOutlivesItsFirstLease() throws InterruptedException {
        String key = key("s");
        Lock holder = semaphore(1);
        Lock other = semaphore(1);
        LockHandle held =
                holder.tryAcquire(key, Lease.fixed(Duration.ofSeconds(2))).orElseThrow();

        held.extend(LONG);

        assertThat(other.tryAcquire(key, LONG_LEASE, Duration.ofSeconds(4))).isEmpty();
        assertThat(held.isHeld()).isTrue();
        held.release();
    }

    @Test
    default void aLoweredCountKeepsTheHoldsBeyondItUntilTheyEnd() {
        String key = key("s");
        Lock three = semaphore(3);
        Lock two = semaphore(2);
        List<LockHandle> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(three.tryAcquire(key, LONG_LEASE).orElseThrow());
        }

        assertThat(two.tryAcquire(key, LONG_LEASE)).as("3 live holds, count 2").isEmpty();
        held.get(0).release();
        assertThat(two.tryAcquire(key, LONG_LEASE)).as("2 live holds, count 2").isEmpty();
        assertThat(held.get(1).isHeld()).isTrue();
        held.get(1).release();
        assertThat(two.tryAcquire(key, LONG_LEASE)).as("1 live hold, count 2").isPresent();
    }

    @Test
    default void aSemaphoresKeyIsApartFromTheLockOfTheSameName() {
        String key = key("s");
        Lock lock = connectedClient();
        Lock semaphore = semaphore(1);

        try (LockHandle locked = lock.tryAcquire(key, LONG_LEASE).orElseThrow()) {
            assertThat(semaphore.tryAcquire(key, LONG_LEASE)).isPresent();
            assertThat(locked.isHeld()).isTrue();
        }
    }

    @Test
    default void aNestedAcquisitionReentersThePermitItsScopeHolds() throws InterruptedException {
        String key = key("s");
        Lock semaphore = semaphore(1);
        Lock other = semaphore(1);

        long[] tokens = semaphore.callWithLock(key, LONG_LEASE, Duration.ZERO, () -> {
            LockHandle outer = LockContext.current(key).orElseThrow();
            try (LockHandle inner = semaphore.tryAcquire(key, LONG_LEASE).orElseThrow()) {
                assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
                return new long[] {outer.fencingToken(), inner.fencingToken()};
            }
        });

        assertThat(tokens[1]).isEqualTo(tokens[0]);
        assertThat(other.tryAcquire(key, LONG_LEASE)).isPresent();
    }

    @Test
    default void theLockTakenInsideAPermitsScopeIsTheKeysOwnLock() throws InterruptedException {
        String key = key("s");
        Lock lock = connectedClient();
        Lock semaphore = lock.kind(Kind.SEMAPHORE)
                .map(semaphores -> semaphores.permits(1))
                .orElse(null);
        assumeTrue(semaphore != null, lock + " offers no semaphores");
        Lock other = connectedClient();

        String[] owners = semaphore.callWithLock(key, LONG_LEASE, Duration.ZERO, () -> {
            LockHandle permit = LockContext.current(key).orElseThrow();
            try (LockHandle locked = lock.tryAcquire(key, LONG_LEASE).orElseThrow()) {
                assertThat(other.tryAcquire(key, LONG_LEASE))
                        .as("the key's lock, held")
                        .isEmpty();
                return new String[] {permit.ownerToken(), locked.ownerToken()};
            }
        });

        assertThat(owners[1]).isNotEqualTo(owners[0]);
    }

    @Test
    default void aCountOutOfRangeIsRefusedNamingTheRange() {
        Lock client = connectedClient();
        Optional<Semaphores> semaphores = client.kind(Kind.SEMAPHORE);
        assumeTrue(semaphores.isPresent(), client + " offers no semaphores");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> semaphores.orElseThrow().permits(0))
                .withMessageContaining("from 1 to " + Semaphores.MAX_PERMITS)
                .withMessageContaining("was 0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> semaphores.orElseThrow().permits(Semaphores.MAX_PERMITS + 1));
    }

    @Test
    default void racingCallersNeverExceedTheCountAndTheUnguardedRaceDoes() throws Exception {
        String key = key("race");
        List<Lock> clients = List.of(semaphore(RACE_PERMITS), semaphore(RACE_PERMITS));

        Overlap guarded = race(thread -> clients.get(thread % clients.size())
                .tryAcquire(key, LONG_LEASE, LONG)
                .orElseThrow());
        Overlap unguarded = race(thread -> null);

        assertThat(guarded.peak()).as("holders at once through the semaphore").isBetween(1, RACE_PERMITS);
        assertThat(unguarded.peak())
                .as("callers at once without it, which the same count would catch")
                .isGreaterThan(RACE_PERMITS);
    }

    /**
     * Runs {@link #RACE_THREADS} callers that each enter and leave a section 20 times, through {@code enter}, counting
     * how many are inside at once. Each stays inside until more than {@link #RACE_PERMITS} callers are, or 20 ms
     * passed, so that an unguarded section overlaps beyond the count whenever callers race.
     */
    private Overlap race(Entry enter) throws Exception {
        Overlap overlap = new Overlap();
        List<Future<?>> callers = new ArrayList<>();
        for (int thread = 0; thread < RACE_THREADS; thread++) {
            int caller = thread;
            callers.add(contractThreads().submit(() -> {
                for (int round = 0; round < 20; round++) {
                    LockHandle held = enter.enter(caller);
                    try {
                        overlap.stayInside(Duration.ofMillis(20));
                    } finally {
                        if (held != null) {
                            held.release();
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> caller : callers) {
            caller.get(45, TimeUnit.SECONDS);
        }
        return overlap;
    }

    /** How a racing caller enters its section: with a permit, or (returning null) without any. */
    @FunctionalInterface
    interface Entry {
        LockHandle enter(int thread) throws Exception;
    }

    /** How many callers are inside a section at once, and the most there were. */
    final class Overlap {

        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger peak = new AtomicInteger();

        void stayInside(Duration atMost) {
            peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
            long end = System.nanoTime() + atMost.toNanos();
            while (inside.get() <= RACE_PERMITS && System.nanoTime() - end < 0) {
                Thread.yield();
            }
            inside.decrementAndGet();
        }

        int peak() {
            return peak.get();
        }
    }
}
