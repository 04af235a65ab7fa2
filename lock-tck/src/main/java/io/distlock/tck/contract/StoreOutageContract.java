package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LOADED_MACHINE_MARGIN;
import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static io.distlock.tck.contract.ContractTimes.PROMISED_LATENESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.abort;

import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises while its store cannot be reached ("Failures" in its javadoc): each waiting form
 * ends no later than 200 ms after its wait, with {@link LockBackendException} since the store never answered; {@code
 * acquire}, which has no wait, ends with it within the client's call timeout; an interrupt ends a wait at once; a
 * nested acquisition, which needs the store's word, does not succeed; and an attempt given up on leaves nothing held
 * once the store is back. {@link LockContract} runs it for each implementation whose test overrides {@link
 * #storeOutage()}.
 *
 * <p>Each bound allows {@link ContractTimes#LOADED_MACHINE_MARGIN} (800 ms) on top of the promised 200 ms, for a
 * loaded machine of two cores; the faults these cases were written for overshot by seconds.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
public interface StoreOutageContract extends ContractSubject {

    /** The wait of the waiting forms that the cases call while the store is down. */
    Duration OUTAGE_WAIT = Duration.ofSeconds(1);

    /** How long a case waits for a call while the store is down, before it counts the call as hanging and fails. */
    Duration OBSERVED = Duration.ofSeconds(30);

    /**
     * Prepares an outage of the store under test for one client. The default skips the outage cases, for a backend
     * whose tests cannot make its store unreachable.
     *
     * @return the outage, not begun yet
     */
    default StoreOutage storeOutage() {
        return abort("this backend's test cannot make its store unreachable");
    }

    /** A waiting try ends within its wait while the store is down, with {@link LockBackendException}. */
    @Test
    default void aWaitingTryEndsWithinItsWaitWhileTheStoreIsDown() throws Exception {
        String key = key("try");
        assertEndsWithinWhileDown(key, OUTAGE_WAIT, lock -> lock.tryAcquire(key, LONG_LEASE, OUTAGE_WAIT));
    }

    /**
     * {@code acquire} waits as long as it takes for a holder, but not for a store that cannot be asked: it ends with
     * {@link LockBackendException} within the client's call timeout.
     */
    @Test
    default void aBlockingAcquireFailsWithinOneCallTimeoutWhileTheStoreIsDown() throws Exception {
        String key = key("acquire");
        assertEndsWithinWhileDown(key, null, lock -> lock.acquire(key, LONG_LEASE));
    }

    /** An asynchronous try's stage completes within its wait while the store is down, failed with the backend error. */
    @Test
    default void anAsynchronousTryEndsWithinItsWaitWhileTheStoreIsDown() throws Exception {
        String key = key("async-try");
        assertEndsWithinWhileDown(key, OUTAGE_WAIT, lock -> joined(lock.tryAcquireAsync(key, LONG_LEASE, OUTAGE_WAIT)));
    }

    /** An asynchronous acquire's stage completes within its wait while the store is down, failed with the backend error. */
    @Test
    default void anAsynchronousAcquireEndsWithinItsWaitWhileTheStoreIsDown() throws Exception {
        String key = key("async-acquire");
        assertEndsWithinWhileDown(key, OUTAGE_WAIT, lock -> joined(lock.acquireAsync(key, LONG_LEASE, OUTAGE_WAIT)));
    }

    /** The JDK view's timed {@code tryLock} ends within its time while the store is down. */
    @Test
    default void theViewsTimedTryLockEndsWithinItsTimeWhileTheStoreIsDown() throws Exception {
        String key = key("view-try");
        assertEndsWithinWhileDown(
                key,
                OUTAGE_WAIT,
                lock -> lock.asJavaLock(key, LONG_LEASE).tryLock(OUTAGE_WAIT.toMillis(), TimeUnit.MILLISECONDS));
    }

    /**
     * The JDK view's {@code lockInterruptibly}, interrupted while the store is down, ends at once with {@link
     * InterruptedException}, whatever call to the store was under way, and leaves nothing held.
     */
    @Test
    default void anInterruptedLockInterruptiblyEndsAtOnceWhileTheStoreIsDown() throws Exception {
        String key = key("view-interrupted");
        Duration took;
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        try (StoreOutage outage = storeOutage()) {
            Lock lock = outage.client();
            warmUp(lock);
            java.util.concurrent.locks.Lock view = lock.asJavaLock(key, LONG_LEASE);
            outage.begin();
            CompletableFuture<Void> ended = new CompletableFuture<>();
            Thread waiter = new Thread(
                    () -> {
                        try {
                            view.lockInterruptibly();
                            view.unlock();
                        } catch (Throwable e) {
                            outcome.set(e);
                        }
                        ended.complete(null);
                    },
                    "contract-outage-waiter");
            waiter.setDaemon(true);
            waiter.start();
            // Interrupt once the waiter waits for the store; one blocked in a socket read looks runnable, so not later
            // than two seconds after it started.
            try {
                await().atMost(Duration.ofSeconds(2))
                        .until(() -> waiter.getState() == Thread.State.WAITING
                                || waiter.getState() == Thread.State.TIMED_WAITING
                                || ended.isDone());
            } catch (ConditionTimeoutException blockedInARead) {
                // Interrupted all the same: the case then shows whether the read gives way.
            }
            long interrupted = System.nanoTime();
            waiter.interrupt();
            took = ended(ended, interrupted);
        }
        System.out.printf(
                "%s, store down: lockInterruptibly ended %d ms after its interrupt with %s%n",
                getClass().getSimpleName(), took.toMillis(), outcome.get());

        assertThat(took)
                .as("time from the interrupt to the end of lockInterruptibly")
                .isLessThanOrEqualTo(PROMISED_LATENESS.plus(LOADED_MACHINE_MARGIN));
        assertThat(outcome.get())
                .as("the outcome of lockInterruptibly, interrupted while the store was down")
                .isInstanceOf(InterruptedException.class);
        assertNothingLeftHeld(key);
    }

    /**
     * A nested acquisition succeeds only after the store confirms the hold, so while the store is down it does not
     * succeed: without a wait it ends within the client's call timeout, with {@link LockBackendException} (or {@link
     * LockLostException}, where the client already learned that its connection broke); and the outer hold is released
     * in full once the store is back.
     */
    @Test
    default void aNestedAcquisitionDoesNotSucceedWhileTheStoreIsDown() throws Exception {
        String key = key("nested-try");
        assertNestedFailsWhileDown(key, null, lock -> lock.tryAcquire(key, LONG_LEASE));
    }

    /** A nested acquisition with a wait asks the store within that wait, and does not succeed while the store is down. */
    @Test
    default void aNestedWaitingAcquisitionEndsWithinItsWaitWhileTheStoreIsDown() throws Exception {
        String key = key("nested-waiting-try");
        assertNestedFailsWhileDown(key, OUTAGE_WAIT, lock -> lock.tryAcquire(key, LONG_LEASE, OUTAGE_WAIT));
    }

    /** A waiting call of a case, on the outage's client. */
    @FunctionalInterface
    interface WaitingCall {

        /**
         * Makes the call.
         *
         * @param lock the outage's client
         * @return what the call returned
         * @throws Exception what the call threw
         */
        Object call(Lock lock) throws Exception;
    }

    /**
     * Runs the call on the outage's client while the store is down and checks that it ended in time with {@link
     * LockBackendException}, and that nothing of it is held once the store is back.
     *
     * @param key the key the call takes
     * @param wait the call's wait; null for {@code acquire}, bounded by the client's call timeout
     * @param call the waiting call
     * @throws Exception if the outage could not be made or ended
     */
    private void assertEndsWithinWhileDown(String key, Duration wait, WaitingCall call) throws Exception {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Duration took;
        Duration bound;
        try (StoreOutage outage = storeOutage()) {
            Lock lock = outage.client();
            warmUp(lock);
            bound = (wait != null ? wait : outage.callTimeout()).plus(PROMISED_LATENESS);
            outage.begin();
            long start = System.nanoTime();
            // On a thread of its own, so that a call that never ends fails the case, which then ends the outage.
            contractThreads().execute(() -> {
                try {
                    outcome.complete(call.call(lock));
                } catch (Throwable e) {
                    outcome.completeExceptionally(e);
                }
            });
            took = ended(outcome, start);
        }
        // The measured figure, for the README's table of bounds with the store down.
        System.out.printf(
                "%s, store down: %s ended after %d ms (promised %d ms) with %s%n",
                getClass().getSimpleName(),
                key.substring(key.lastIndexOf(':') + 1),
                took.toMillis(),
                bound.toMillis(),
                outcome.isDone() ? describe(outcome) : "nothing yet");

        assertThat(took)
                .as(
                        "time the call took with the store down (promised: %d ms; ended with %s)",
                        bound.toMillis(), outcome.isDone() ? describe(outcome) : "nothing yet")
                .isLessThanOrEqualTo(bound.plus(LOADED_MACHINE_MARGIN));
        assertThat(outcome)
                .as("the outcome with the store down: the store never answered, so not a plain 'not acquired'")
                .failsWithin(Duration.ZERO)
                .withThrowableThat()
                .havingCause()
                .isInstanceOf(LockBackendException.class);
        assertNothingLeftHeld(key);
    }

    /**
     * Holds the key on the outage's client, stops the store, and runs the nested call in a scope of that hold; checks
     * that the call ended in time without the key, and that releasing the outer handle frees the key once the store is
     * back: a re-entry that stayed counted on the hold would keep it held for its 30 s lease.
     *
     * @param key the key the call takes again
     * @param wait the call's wait; null for none, bounded by the client's call timeout
     * @param call the nested call
     * @throws Exception if the outage could not be made or ended
     */
    @SuppressWarnings("try") // the scope is what the nested call re-enters, never named in it
    private void assertNestedFailsWhileDown(String key, Duration wait, WaitingCall call) throws Exception {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Duration took;
        Duration bound;
        LockHandle outer;
        try (StoreOutage outage = storeOutage()) {
            Lock lock = outage.client();
            warmUp(lock);
            outer = lock.tryAcquire(key, LONG_LEASE).orElseThrow();
            bound = (wait != null ? wait : outage.callTimeout()).plus(PROMISED_LATENESS);
            outage.begin();
            long start = System.nanoTime();
            contractThreads().execute(() -> {
                try (LockContext.Scope scope = LockContext.enter(outer)) {
                    outcome.complete(call.call(lock));
                } catch (Throwable e) {
                    outcome.completeExceptionally(e);
                }
            });
            took = ended(outcome, start);
        }
        System.out.printf(
                "%s, store down: %s ended after %d ms (promised %d ms) with %s%n",
                getClass().getSimpleName(),
                key.substring(key.lastIndexOf(':') + 1),
                took.toMillis(),
                bound.toMillis(),
                outcome.isDone() ? describe(outcome) : "nothing yet");

        assertThat(outcome)
                .as("the nested acquisition with the store down: it must not succeed without the store's word")
                .failsWithin(Duration.ZERO)
                .withThrowableThat()
                .havingCause()
                .isInstanceOfAny(LockBackendException.class, LockLostException.class);
        assertThat(took)
                .as("time the nested acquisition took with the store down (promised: %d ms)", bound.toMillis())
                .isLessThanOrEqualTo(bound.plus(LOADED_MACHINE_MARGIN));
        try {
            outer.release();
        } catch (LockLostException lostMeanwhile) {
            // A client that hears of its broken connection ends its holds; the key goes then as well.
        }
        assertNothingLeftHeld(key);
    }

    /**
     * How long after {@code startNanos} the call ended, waiting at most {@link #OBSERVED}: a call still under way then
     * counts as taking that long.
     */
    private static Duration ended(CompletableFuture<?> call, long startNanos) throws InterruptedException {
        try {
            call.handle((result, failure) -> null).get(OBSERVED.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // Still under way: the duration says so.
        }
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static String describe(CompletableFuture<?> outcome) {
        return outcome.handle((result, failure) -> {
                    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                            ? failure.getCause()
                            : failure;
                    return cause != null ? cause.toString() : "the result " + result;
                })
                .join();
    }

    /** Waits for the stage and throws what it failed with, as a synchronous call would. */
    private static Object joined(CompletionStage<?> stage) throws Exception {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Uses the client once while the store answers, so that its connections are open when the outage begins. */
    private void warmUp(Lock lock) {
        lock.tryAcquire(key("warm-up"), LONG_LEASE).orElseThrow().release();
    }

    /**
     * Once the store is back, another client gets the key within seconds, although the call given up on asked for a
     * 30 s lease: a grant that reached the store after the caller gave up was given back.
     */
    private void assertNothingLeftHeld(String key) {
        Lock other = newClient();
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(LockBackendException.class) // while the client reconnects
                .untilAsserted(() -> {
                    Optional<LockHandle> taken = other.tryAcquire(key, LONG_LEASE);
                    assertThat(taken).as("the key after the outage").isPresent();
                    taken.get().release();
                });
    }
}
