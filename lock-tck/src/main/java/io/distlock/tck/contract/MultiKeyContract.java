package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LOADED_MACHINE_MARGIN;
import static io.distlock.tck.contract.ContractTimes.PROMISED_LATENESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.MultiLockHandle;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises about several keys taken together ({@link Lock#tryAcquireAll}, {@link
 * Lock#acquireAll}, {@link Lock#callWithLocks}); {@link LockContract} runs it for each implementation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // cases hold locks in try-with-resources blocks that never name them
public interface MultiKeyContract extends ContractSubject {

    /** A lease that outlasts every test. */
    Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    /** Each key of a set is taken once, in the one global key order, with a handle and fencing token of its own. */
    @Test
    default void everyKeyIsTakenOnceInKeyOrderWithItsOwnHandleAndFencingToken() throws Exception {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String a = key("a");
        String b = key("b");

        MultiLockHandle held =
                lock.tryAcquireAll(List.of(b, a, b), LONG, Duration.ZERO).orElseThrow();

        assertThat(held.keys()).containsExactly(a, b);
        assertThat(held.handles()).extracting(LockHandle::key).containsExactly(a, b);
        assertThat(held.handle(b).fencingToken())
                .isEqualTo(held.fencingToken(b))
                .isPositive();
        assertThat(other.tryAcquire(a, LONG)).isEmpty();
        assertThat(other.tryAcquire(b, LONG)).isEmpty();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> held.handle(key("c")))
                .withMessageContaining("not one");
        held.release();
        assertThat(other.tryAcquire(a, LONG)).isPresent();
        assertThat(other.tryAcquire(b, LONG)).isPresent();
        assertThatThrownBy(held::release).isInstanceOf(IllegalStateException.class);
    }

    /** A key that another client holds makes the call fail and frees the keys it had already taken. */
    @Test
    default void aBusyKeyGivesBackTheKeysAlreadyTaken() throws Exception {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String a = key("a");
        String b = key("b");
        String c = key("c");
        other.tryAcquire(b, LONG).orElseThrow();

        assertThat(lock.tryAcquireAll(List.of(a, b, c), LONG, Duration.ZERO)).isEmpty();

        assertThat(connectedClient().tryAcquire(a, LONG))
                .as("taken before the busy key, then given back")
                .isPresent();
        assertThat(connectedClient().tryAcquire(c, LONG)).isPresent();
    }

    /** One wait bounds the acquisition of all the keys together, not one wait per key. */
    @Test
    default void theWaitIsForAllTheKeysTogether() throws Exception {
        Lock lock = connectedClient();
        String a = key("a");
        String b = key("b");
        connectedClient().tryAcquire(b, LONG).orElseThrow();

        long start = System.nanoTime();
        Optional<MultiLockHandle> result = lock.tryAcquireAll(List.of(a, b), LONG, Duration.ofMillis(400));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(result).isEmpty();
        assertThat(waited)
                .isBetween(
                        Duration.ofMillis(400),
                        Duration.ofMillis(400).plus(PROMISED_LATENESS).plus(LOADED_MACHINE_MARGIN));
        Optional<LockHandle> free = connectedClient().tryAcquire(a, LONG);
        assertThat(free).as("the valid key, untouched by the refused calls").isPresent();
        free.get().release();
    }

    /** A caller waiting for several keys gets them all soon after the last busy one is released. */
    @Test
    default void aWaiterGetsEveryKeySoonAfterTheLastBusyOneIsReleased() throws Exception {
        Lock waiter = connectedClient();
        String a = key("a");
        String b = key("b");
        LockHandle busy = connectedClient().tryAcquire(b, LONG).orElseThrow();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<Optional<MultiLockHandle>> waiting =
                    thread.submit(() -> waiter.tryAcquireAll(List.of(a, b), LONG, Duration.ofSeconds(20)));
            Thread.sleep(200);
            assertThat(waiting).isNotDone();

            long released = System.nanoTime();
            busy.release();
            MultiLockHandle held = waiting.get(10, TimeUnit.SECONDS).orElseThrow();

            assertThat(Duration.ofNanos(System.nanoTime() - released))
                    .isLessThan(Duration.ofSeconds(1).plus(LOADED_MACHINE_MARGIN));
            assertThat(held.handles()).allMatch(LockHandle::isHeld);
        } finally {
            thread.shutdownNow();
        }
    }

    /** An interrupted wait for several keys ends with {@link InterruptedException} and leaves none of them held. */
    @Test
    default void anInterruptedWaitLeavesNothingHeld() throws Exception {
        Lock waiter = connectedClient();
        String a = key("a");
        String b = key("b");
        connectedClient().tryAcquire(b, LONG).orElseThrow();
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                waiter.acquireAll(List.of(a, b), LONG);
                ended.complete(null);
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        waiting.start();
        Lock probe = connectedClient();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> probe.tryAcquire(a, LONG)
                        .map(taken -> {
                            taken.release();
                            return false;
                        })
                        .orElse(true));

        waiting.interrupt();

        assertThat(ended.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(connectedClient().tryAcquire(a, LONG)).isPresent();
    }

    /** Work run under several keys sees each key's handle in its context, and a refusal names the key that was busy. */
    @Test
    default void workUnderSeveralKeysSeesEveryHandleAndANotAcquiredNamesTheBusyKey() throws Exception {
        Lock lock = connectedClient();
        String a = key("a");
        String b = key("b");

        List<Long> tokens = lock.callWithLocks(
                List.of(a, b),
                LONG,
                Duration.ZERO,
                () -> List.of(
                        LockContext.current(a).orElseThrow().fencingToken(),
                        LockContext.current(b).orElseThrow().fencingToken()));

        assertThat(tokens).allMatch(token -> token > 0);
        assertThat(LockContext.current()).isEmpty();
        LockHandle busy = connectedClient().tryAcquire(b, LONG).orElseThrow();
        assertThatThrownBy(() -> lock.callWithLocks(List.of(a, b), LONG, Duration.ZERO, () -> "ran"))
                .isInstanceOfSatisfying(
                        LockNotAcquiredException.class, e -> assertThat(e.key()).isEqualTo(b));
        busy.release();
        assertThat(connectedClient().tryAcquire(a, LONG)).isPresent();
    }

    /** A key that the enclosing work already holds is re-entered, and the other keys of the set are taken. */
    @Test
    default void aKeyHeldByTheEnclosingWorkIsReEnteredAndTheOthersTaken() throws Exception {
        Lock lock = connectedClient();
        String a = key("a");
        String b = key("b");

        lock.runWithLock(a, LONG, Duration.ZERO, () -> {
            LockHandle outer = LockContext.current(a).orElseThrow();
            try (MultiLockHandle both =
                    lock.tryAcquireAll(List.of(a, b), LONG, Duration.ZERO).orElseThrow()) {
                assertThat(both.fencingToken(a)).isEqualTo(outer.fencingToken());
            }
            assertThat(outer.isHeld())
                    .as("the re-entered key stays held by the enclosing work")
                    .isTrue();
        });
    }

    /** The loss of any one key is reported once, through the handle of all the keys. */
    @Test
    default void aLostKeyIsReportedOnceByTheHandleOfAllTheKeys() throws Exception {
        Lock lock = connectedClient();
        MultiLockHandle held = lock.tryAcquireAll(
                        List.of(key("a"), key("b")), Lease.fixed(Duration.ofMillis(300)), Duration.ZERO)
                .orElseThrow();
        AtomicInteger reported = new AtomicInteger();
        held.onLost(lost -> reported.incrementAndGet());

        await().atMost(Duration.ofSeconds(5)).until(held::isLost);
        await().atMost(Duration.ofSeconds(5)).until(() -> reported.get() > 0);

        assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
        assertThat(reported).hasValue(1);
    }

    /**
     * Invalid keys, leases or waits, and more than {@link Lock#MAX_KEYS_AT_ONCE} keys, are refused before any key is
     * taken, with a message that names the problem without quoting the keys.
     */
    @Test
    default void invalidKeysAreRefusedBeforeAnyKeyIsTaken() {
        Lock lock = connectedClient();
        String a = key("a");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquireAll(List.of(), LONG, Duration.ZERO))
                .withMessageContaining("at least one key");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquireAll(List.of(a, " "), LONG, Duration.ZERO))
                .withMessageContaining("null or blank")
                .withMessageContaining("2 of 2")
                .withMessageNotContaining(a);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquireAll(List.of(a), LONG, Duration.ofMillis(-1)))
                .withMessageContaining("wait must be zero");
        List<String> tooMany = IntStream.rangeClosed(0, Lock.MAX_KEYS_AT_ONCE)
                .mapToObj(i -> key("from-a-request-" + i))
                .toList();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquireAll(tooMany, LONG, Duration.ZERO))
                .withMessageContaining("at most " + Lock.MAX_KEYS_AT_ONCE + " keys")
                .withMessageContaining("named " + tooMany.size())
                .withMessageNotContaining("from-a-request");
        assertThat(connectedClient().tryAcquire(a, LONG)).isPresent();
        assertThat(connectedClient().tryAcquire(tooMany.get(0), LONG)).isPresent();
    }
}
