package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RedisLock#tryAcquireAsync} on a real Redis: it waits in the same queue as blocking callers without a thread,
 * completes off the Redis client's threads, ends at its wait, and a cancel leaves nothing held.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncAcquisitionTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(10));

    private static TestRedis redis;
    private static ScheduledExecutorService sections;

    private final RedisClients clients = new RedisClients(redis);
    private final RedisLock lock = clients.lock();
    private final String key = "async:" + UUID.randomUUID();

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
        sections = Executors.newScheduledThreadPool(2);
    }

    @AfterAll
    static void stopRedis() {
        sections.shutdownNow();
        redis.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void aFreeKeyIsAcquiredAndTheStageCompletesOffTheRedisClientsThreads() {
        AtomicReference<String> completedOn = new AtomicReference<>();

        LockHandle handle = lock.acquireAsync(key, LEASE, Duration.ofSeconds(1))
                .whenComplete((held, failure) ->
                        completedOn.set(Thread.currentThread().getName()))
                .toCompletableFuture()
                .join();

        assertThat(handle.isHeld()).isTrue();
        assertThat(redis.command("EXISTS", "{distlock:" + key + "}")).isEqualTo("1");
        assertCompletedOffTheClientsThreads(completedOn.get());
        handle.release();
    }

    @Test
    void waitsWithoutAThreadAndGetsTheLockWhenTheHolderReleases() throws Exception {
        LockHandle holder = clients.lock().tryAcquire(key, LEASE).orElseThrow();

        CompletableFuture<Optional<LockHandle>> waiting =
                lock.tryAcquireAsync(key, LEASE, Duration.ofSeconds(20)).toCompletableFuture();
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(waiting).isNotDone();
        assertThat(lock.waitingThreads()).containsValue(1);

        holder.release();

        LockHandle acquired = waiting.get(5, TimeUnit.SECONDS).orElseThrow();
        assertThat(acquired.fencingToken()).isGreaterThan(holder.fencingToken());
        acquired.release();
    }

    @Test
    void theStageCompletesEmptyWhenTheLockStaysHeldForTheWholeWait() {
        LockHandle holder = clients.lock().tryAcquire(key, LEASE).orElseThrow();
        long started = System.nanoTime();

        Optional<LockHandle> acquired = lock.tryAcquireAsync(key, LEASE, Duration.ofMillis(400))
                .toCompletableFuture()
                .join();

        assertThat(acquired).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isBetween(Duration.ofMillis(390), Duration.ofSeconds(3));
        assertThat(lock.waitingThreads()).isEmpty();
        assertThatThrownBy(() -> lock.acquireAsync(key, LEASE, Duration.ofMillis(50))
                        .toCompletableFuture()
                        .join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(LockNotAcquiredException.class);
        holder.release();
    }

    @Test
    void aZeroWaitTriesOnce() {
        LockHandle holder = clients.lock().tryAcquire(key, LEASE).orElseThrow();

        assertThat(lock.tryAcquireAsync(key, LEASE, Duration.ZERO)
                        .toCompletableFuture()
                        .join())
                .isEmpty();

        holder.release();
        LockHandle acquired = lock.tryAcquireAsync(key, LEASE, Duration.ZERO)
                .toCompletableFuture()
                .join()
                .orElseThrow();
        acquired.release();
    }

    @Test
    void aCancelledWaitHoldsNothingEvenWhenTheHolderOfThisProcessWouldHandOver() throws Exception {
        LockHandle holder = lock.tryAcquire(key, LEASE).orElseThrow();
        CompletableFuture<Optional<LockHandle>> waiting =
                lock.tryAcquireAsync(key, LEASE, Duration.ofSeconds(20)).toCompletableFuture();
        await().atMost(Duration.ofSeconds(2)).until(() -> !lock.waitingThreads().isEmpty());

        waiting.cancel(false);
        await().atMost(Duration.ofSeconds(2)).until(() -> lock.waitingThreads().isEmpty());
        holder.release();

        assertThat(redis.command("EXISTS", "{distlock:" + key + "}")).isEqualTo("0");
        clients.lock().tryAcquire(key, LEASE).orElseThrow().release();
    }

    @Test
    void aGrantThatArrivesAfterTheCancelIsReleasedAgain() {
        AtomicInteger given = new AtomicInteger();
        for (int i = 0; i < 50; i++) {
            String raced = key + ":" + i;
            CompletableFuture<Optional<LockHandle>> racing =
                    lock.tryAcquireAsync(raced, LEASE, Duration.ofSeconds(5)).toCompletableFuture();
            if (racing.cancel(false)) {
                given.incrementAndGet();
            } else {
                racing.join().ifPresent(LockHandle::release);
            }
            await().pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(5))
                    .atMost(Duration.ofSeconds(5))
                    .until(() ->
                            redis.command("EXISTS", "{distlock:" + raced + "}").equals("0"));
        }
        assertThat(given).as("cancels that came before the grant").hasPositiveValue();
    }

    @Test
    void blockingAndAsynchronousWaitersAreServedInTheOrderTheyArrived() throws Exception {
        LockHandle holder = lock.tryAcquire(key, LEASE).orElseThrow();
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> blocking = CompletableFuture.runAsync(() -> {
            try {
                LockHandle handle =
                        lock.tryAcquire(key, LEASE, Duration.ofSeconds(20)).orElseThrow();
                order.add("blocking");
                handle.release();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(2)).until(() -> lock.waitingThreads().containsValue(1));
        CompletableFuture<Void> asynchronous = lock.acquireAsync(key, LEASE, Duration.ofSeconds(20))
                .thenAccept(handle -> {
                    order.add("async");
                    handle.release();
                })
                .toCompletableFuture();
        await().atMost(Duration.ofSeconds(2)).until(() -> lock.waitingThreads().containsValue(2));

        holder.release();

        CompletableFuture.allOf(blocking, asynchronous).get(10, TimeUnit.SECONDS);
        assertThat(order).containsExactly("blocking", "async");
    }

    @Test
    void anAsynchronousReleaseHandsTheKeyToAnAsynchronousWaiterOfThisInstance() throws Exception {
        LockHandle holder = lock.tryAcquire(key, LEASE).orElseThrow();
        CompletableFuture<LockHandle> waiting =
                lock.acquireAsync(key, LEASE, Duration.ofSeconds(20)).toCompletableFuture();
        await().atMost(Duration.ofSeconds(2)).until(() -> lock.waitingThreads().containsValue(1));
        AtomicReference<String> releasedOn = new AtomicReference<>();

        holder.releaseAsync()
                .whenComplete(
                        (done, failure) -> releasedOn.set(Thread.currentThread().getName()))
                .toCompletableFuture()
                .get(5, TimeUnit.SECONDS);

        LockHandle next = waiting.get(5, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isEqualTo(holder.fencingToken() + 1);
        assertCompletedOffTheClientsThreads(releasedOn.get());
        next.releaseAsync().toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(redis.command("EXISTS", "{distlock:" + key + "}")).isEqualTo("0");
    }

    @Test
    void aReleaseOnAThreadOfTheRedisClientDoesNotWaitForItself() throws Exception {
        ClientThreadRelease released = releasedOnAClientThread(handle -> {
            long started = System.nanoTime();
            return handle.releaseAsync().thenApply(done -> Duration.ofNanos(System.nanoTime() - started));
        });

        assertThat(released.took()).isLessThan(Duration.ofSeconds(1));
        assertThat(redis.command("EXISTS", "{distlock:" + released.key() + "}")).isEqualTo("0");
    }

    @Test
    void aBlockingReleaseOnAThreadOfTheRedisClientWaitsForTheCommandTimeout() throws Exception {
        ClientThreadRelease released = releasedOnAClientThread(handle -> {
            long started = System.nanoTime();
            try {
                handle.release();
                return CompletableFuture.failedFuture(new AssertionError("the blocking release returned"));
            } catch (LockBackendException stalled) {
                return CompletableFuture.completedFuture(Duration.ofNanos(System.nanoTime() - started));
            }
        });

        assertThat(released.took()).isGreaterThanOrEqualTo(RedisClients.COMMAND_TIMEOUT);
    }

    /** How long a release on a thread of the Redis client took, and the key it released. */
    private record ClientThreadRelease(Duration took, String key) {}

    /**
     * Releases a held key with {@code release} where another hold's asynchronous release ends: on the event loop thread
     * of the lock's connection that read Redis's answer. An answer fast enough to be there before the release's last
     * stage was attached ends it on this thread instead; such a round is done again with new keys.
     */
    private ClientThreadRelease releasedOnAClientThread(Function<LockHandle, CompletionStage<Duration>> release)
            throws Exception {
        AtomicReference<LockHandle> target = new AtomicReference<>();
        AtomicReference<CompletableFuture<Optional<Duration>>> round = new AtomicReference<>();
        RedisLock observed = clients.lock(settings -> settings.observer(onReleased(() -> {
            LockHandle releasing = target.getAndSet(null);
            if (releasing == null) {
                return;
            }
            CompletableFuture<Optional<Duration>> outcome = round.get();
            if (!Thread.currentThread().getName().contains("lettuce")) {
                releasing.release();
                outcome.complete(Optional.empty());
                return;
            }
            release.apply(releasing).whenComplete((took, failure) -> {
                if (failure == null) {
                    outcome.complete(Optional.of(took));
                } else {
                    outcome.completeExceptionally(failure);
                }
            });
        })));
        for (int i = 0; i < 20; i++) {
            String targetKey = key + ":target:" + i;
            LockHandle trigger =
                    observed.tryAcquire(key + ":trigger:" + i, LEASE).orElseThrow();
            CompletableFuture<Optional<Duration>> outcome = new CompletableFuture<>();
            round.set(outcome);
            target.set(observed.tryAcquire(targetKey, LEASE).orElseThrow());

            trigger.releaseAsync();

            Optional<Duration> took = outcome.get(10, TimeUnit.SECONDS);
            if (took.isPresent()) {
                return new ClientThreadRelease(took.get(), targetKey);
            }
        }
        throw new AssertionError("in 20 rounds, no asynchronous release ended on a thread of the Redis client");
    }

    /**
     * An observer that runs {@code action} when a hold ends. A release that blocks no thread ends its hold where Redis's
     * answer is read: on the event loop thread of the lock's connection, where asynchronous work on the same Redis goes
     * on too.
     */
    private static LockObserver onReleased(Runnable action) {
        return new LockObserver() {
            @Override
            public Holding holdStarted(String heldKey, LockKind kind, long fencingToken) {
                return new Holding() {
                    @Override
                    public void released() {
                        action.run();
                    }
                };
            }
        };
    }

    @Test
    void anAsynchronousReleaseOfALostLockFailsWithTheLossAndLeavesTheNewOwnersKey() {
        LockHandle expiring =
                lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(100))).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(expiring::isLost);
        LockHandle next = clients.lock().tryAcquire(key, LEASE).orElseThrow();

        assertThat(expiring.releaseAsync().toCompletableFuture())
                .failsWithin(Duration.ofSeconds(5))
                .withThrowableThat()
                .havingCause()
                .isInstanceOf(LockLostException.class);
        assertThat(next.isHeld()).isTrue();
        next.release();
    }

    @Test
    void manyAsynchronousHoldersOfTwoInstancesNeverOverlap() throws Exception {
        RunOutcome locked = runChains(true);
        RunOutcome unlocked = runChains(false);

        assertThat(locked.sections()).isEqualTo(2 * 8 * 25);
        assertThat(locked.overlaps()).isZero();
        assertThat(unlocked.overlaps()).as("the same chains without the lock").isPositive();
    }

    @Test
    void aKeyThatAScopeOfTheCallingThreadHoldsFailsAtOnce() {
        LockHandle outer = lock.tryAcquire(key, LEASE).orElseThrow();
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            assertThatThrownBy(() -> lock.tryAcquireAsync(key, LEASE, Duration.ofSeconds(30))
                            .toCompletableFuture()
                            .get(1, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("held by a scope of the calling thread");
        }
        outer.release();
    }

    @Test
    void invalidArgumentsFailTheStage() {
        assertThat(lock.tryAcquireAsync(" ", LEASE, Duration.ofSeconds(1)).toCompletableFuture())
                .isCompletedExceptionally();
        assertThatThrownBy(() -> lock.tryAcquireAsync(key, LEASE, Duration.ofSeconds(-1))
                        .toCompletableFuture()
                        .join())
                .hasCauseInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait must be zero");
    }

    @Test
    void closingTheLockFailsAWaitingAcquisition() {
        LockHandle holder = clients.lock().tryAcquire(key, LEASE).orElseThrow();
        CompletableFuture<Optional<LockHandle>> waiting =
                lock.tryAcquireAsync(key, LEASE, Duration.ofSeconds(30)).toCompletableFuture();
        await().atMost(Duration.ofSeconds(2)).until(() -> !lock.waitingThreads().isEmpty());

        lock.close();

        assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
        holder.release();
    }

    @Test
    void aRedisThatStopsAnsweringFailsTheStageByTheEndOfTheWait() {
        lock.tryAcquire(key, LEASE).orElseThrow().release();
        redis.pause();
        try {
            long started = System.nanoTime();
            assertThatThrownBy(() -> lock.tryAcquireAsync(key + ":frozen", LEASE, Duration.ofMillis(500))
                            .toCompletableFuture()
                            .get(5, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(LockBackendException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        } finally {
            redis.resume();
        }
    }

    private record RunOutcome(int sections, int overlaps) {}

    /**
     * Eight chains per lock instance on one key, each taking the lock 25 times and holding it for a millisecond that
     * no thread waits through; without the lock, the chains only take turns on the scheduler.
     */
    private RunOutcome runChains(boolean withLock) throws Exception {
        String raced = key + (withLock ? ":locked" : ":unlocked");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger sectionsRun = new AtomicInteger();
        List<CompletableFuture<Void>> chains = new ArrayList<>();
        for (RedisLock instance : List.of(lock, clients.lock())) {
            for (int chain = 0; chain < 8; chain++) {
                chains.add(chain(instance, raced, withLock, 25, inside, overlaps, sectionsRun));
            }
        }
        CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);
        return new RunOutcome(sectionsRun.get(), overlaps.get());
    }

    private CompletableFuture<Void> chain(
            RedisLock instance,
            String raced,
            boolean withLock,
            int left,
            AtomicInteger inside,
            AtomicInteger overlaps,
            AtomicInteger sectionsRun) {
        if (left == 0) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Optional<LockHandle>> taken = withLock
                ? instance.tryAcquireAsync(raced, LEASE, Duration.ofSeconds(30)).toCompletableFuture()
                : CompletableFuture.completedFuture(Optional.empty());
        return taken.thenCompose(handle -> {
                    if (withLock && handle.isEmpty()) {
                        throw new IllegalStateException("not acquired within 30 s");
                    }
                    if (inside.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    sectionsRun.incrementAndGet();
                    CompletableFuture<Void> section = new CompletableFuture<>();
                    sections.schedule(
                            () -> {
                                inside.decrementAndGet();
                                handle.ifPresent(LockHandle::releaseAsync);
                                section.complete(null);
                            },
                            1,
                            TimeUnit.MILLISECONDS);
                    return section;
                })
                .thenCompose(done -> chain(instance, raced, withLock, left - 1, inside, overlaps, sectionsRun));
    }

    /**
     * A stage completes on a distlock thread, never on the Redis client's; one that completed before the caller
     * attached its action runs that action on the caller's own thread, which a busy machine makes likely.
     */
    private static void assertCompletedOffTheClientsThreads(String thread) {
        assertThat(thread)
                .as("the thread that ran the caller's action on the stage")
                .satisfiesAnyOf(
                        name -> assertThat(name).startsWith("distlock-async"),
                        name -> assertThat(name)
                                .isEqualTo(Thread.currentThread().getName()));
    }
}
