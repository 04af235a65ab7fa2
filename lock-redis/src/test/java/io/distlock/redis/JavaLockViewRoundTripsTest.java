package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.monitor.LockObserver;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code java.util.concurrent.locks.Lock} view costs Redis what distlock's own API costs, in every way it is locked
 * and held: the same number of script calls for a free key, and a waiting thread is handed the key by the holder's
 * release in one script call, as a waiter of the own API is. A view that added a call, or lost the local handover,
 * would make these counts differ; the benchmark's view contenders measure the speed, this keeps the work from coming
 * back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JavaLockViewRoundTripsTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final Pattern SCRIPT_CALLS = Pattern.compile("cmdstat_(?:evalsha|eval):calls=(\\d+)");

    private static TestRedis redis;

    private final RedisClients clients = new RedisClients(redis);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HandoverCount handovers = new HandoverCount();
    private final String key = "view:" + UUID.randomUUID();

    /** How a caller takes the view's lock. */
    enum Locking {
        LOCK,
        LOCK_INTERRUPTIBLY,
        TRY_LOCK,
        TRY_LOCK_WITH_WAIT;

        boolean take(Lock view) throws InterruptedException {
            switch (this) {
                case LOCK -> view.lock();
                case LOCK_INTERRUPTIBLY -> view.lockInterruptibly();
                case TRY_LOCK -> {
                    return view.tryLock();
                }
                default -> {
                    return view.tryLock(LONG.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            return true;
        }
    }

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @ParameterizedTest
    @EnumSource(Locking.class)
    void aFreeKeyCostsTheViewTwoScriptCallsAsItCostsTheOwnApi(Locking locking) throws Exception {
        RedisLock lock = preparedLock();
        long ownApi = scriptCallsOf(() -> lock.acquire(key, Lease.fixed(LONG)).release());

        Lock shared = lock.asJavaLock(key, Lease.fixed(LONG));
        long sharedView = scriptCallsOf(() -> {
            assertThat(locking.take(shared)).isTrue();
            shared.unlock();
        });
        long newView = scriptCallsOf(() -> {
            Lock view = lock.asJavaLock(key, Lease.fixed(LONG));
            assertThat(locking.take(view)).isTrue();
            view.unlock();
        });

        assertThat(ownApi).isEqualTo(2);
        assertThat(sharedView).as("one view kept for all calls").isEqualTo(ownApi);
        assertThat(newView).as("a new view for the call").isEqualTo(ownApi);
    }

    @ParameterizedTest
    @EnumSource(
            value = Locking.class,
            names = {"LOCK", "LOCK_INTERRUPTIBLY", "TRY_LOCK_WITH_WAIT"})
    void aThreadWaitingThroughAViewIsHandedTheKeyAsAWaiterOfTheOwnApiIs(Locking locking) throws Exception {
        RedisLock lock = preparedLock();
        long ownApi = scriptCallsOf(() -> handOverWhileWaiting(lock, () -> {
            lock.acquire(key, Lease.fixed(LONG)).release();
            return true;
        }));
        int ownApiHandovers = handovers.count.getAndSet(0);

        long newView = scriptCallsOf(() -> handOverWhileWaiting(lock, () -> {
            Lock view = lock.asJavaLock(key, Lease.fixed(LONG));
            boolean taken = locking.take(view);
            view.unlock();
            return taken;
        }));

        assertThat(ownApiHandovers).isEqualTo(1);
        assertThat(handovers.count).as("handovers to the view's thread").hasValue(1);
        // The holder's acquisition, the waiter's refused attempt, the handover, the waiter's release.
        assertThat(ownApi).isEqualTo(4);
        assertThat(newView).isEqualTo(ownApi);
    }

    @Test
    void aReleaseThroughTheViewHandsTheKeyToAWaitingThread() throws Exception {
        RedisLock lock = preparedLock();
        Lock view = lock.asJavaLock(key, Lease.fixed(LONG));

        long calls = scriptCallsOf(() -> {
            view.lock();
            Future<Boolean> waiter = threads.submit(() -> {
                lock.acquire(key, Lease.fixed(LONG)).release();
                return true;
            });
            awaitRefusedAttempt();
            view.unlock();
            assertThat(waiter.get(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
        });

        assertThat(handovers.count).hasValue(1);
        assertThat(calls).isEqualTo(4);
    }

    /**
     * A lock that has made its connections, subscribed to releases and run each script of a handover once, so that
     * what is counted afterwards is the calls' own: Redis refuses a script's SHA once before it knows the script, and
     * a waiter looks at the key again when the subscription it waited for arrives.
     */
    private RedisLock preparedLock() throws Exception {
        RedisLock lock = clients.lock(settings -> settings.observer(handovers));
        assertThat(lock.prepare(LONG)).isTrue();
        handOverWhileWaiting(lock, () -> {
            lock.acquire(key, Lease.fixed(LONG)).release();
            return true;
        });
        handovers.count.set(0);
        return lock;
    }

    /**
     * Holds the key through the own API while {@code waiter} waits for it on another thread, and releases once the
     * waiter's refused attempt has marked the key in Redis, so that the release finds it waiting.
     */
    private void handOverWhileWaiting(RedisLock lock, CheckedCall waiter) throws Exception {
        LockHandle held = lock.acquire(key, Lease.fixed(LONG));
        Future<Boolean> waiting = threads.submit(waiter::call);
        awaitRefusedAttempt();
        held.release();
        assertThat(waiting.get(LONG.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    /** A waiter's refused attempt leaves its mark after the holder's token: the ready signal that it waits. */
    private void awaitRefusedAttempt() {
        await("a waiting thread's refused attempt, marking the key")
                .atMost(Duration.ofSeconds(20))
                .until(() -> {
                    String value = redis.command("GET", "{distlock:" + key + "}");
                    return value != null && value.contains("+");
                });
    }

    private static long scriptCallsOf(CheckedRun run) throws Exception {
        long before = scriptCalls();
        run.run();
        return scriptCalls() - before;
    }

    private static long scriptCalls() {
        Matcher calls = SCRIPT_CALLS.matcher(redis.command("INFO", "commandstats"));
        long total = 0;
        while (calls.find()) {
            total += Long.parseLong(calls.group(1));
        }
        return total;
    }

    @FunctionalInterface
    private interface CheckedRun {
        void run() throws Exception;
    }

    @FunctionalInterface
    private interface CheckedCall {
        boolean call() throws Exception;
    }

    private static final class HandoverCount implements LockObserver {

        private final AtomicInteger count = new AtomicInteger();

        @Override
        public void handedOver(String key) {
            count.incrementAndGet();
        }
    }
}
