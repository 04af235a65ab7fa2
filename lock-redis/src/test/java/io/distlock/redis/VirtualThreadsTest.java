package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Blocking acquisitions on virtual threads: every one of 10,000 virtual threads on 100 keys gets its lock, alone, and
 * no virtual thread is pinned to its carrier while it waits, as JFR's {@code jdk.VirtualThreadPinned} events would
 * show. Virtual threads came with Java 21, so on an older JVM every test here is skipped, saying why. The build compiles
 * for Java 17, so the Java 21 methods are called by reflection.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class VirtualThreadsTest {

    private static final int THREADS = 10_000;
    private static final int KEYS = 100;
    private static final String PINNED = "jdk.VirtualThreadPinned";
    private static final int JAVA = Runtime.version().feature();

    private static TestRedis redis;

    private final String prefix = "virtual:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void startRedis() {
        if (JAVA >= 21) {
            redis = TestRedis.start();
        }
    }

    // Per test rather than per class, so that the report lists each test as skipped, with the reason.
    @BeforeEach
    void needsVirtualThreads() {
        assumeTrue(JAVA >= 21, "virtual threads need Java 21 or newer; this JVM is Java " + JAVA + ", so skipped");
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void tenThousandVirtualThreadsOnAHundredKeysEachGetTheirLockAloneAndNoneIsPinned() throws Exception {
        try (RedisClients clients = new RedisClients(redis)) {
            tenThousandVirtualThreadsOnAHundredKeys(clients.lock());
        }
    }

    private void tenThousandVirtualThreadsOnAHundredKeys(RedisLock lock) throws Exception {
        warmUp(lock);
        Sections sections = new Sections(KEYS);

        List<RecordedEvent> pinned = recordPinning(() -> onVirtualThreads(THREADS, i -> {
            try (LockHandle held = lock.tryAcquire(
                            prefix + (i % KEYS), Lease.fixed(Duration.ofSeconds(60)), Duration.ofSeconds(240))
                    .orElseThrow()) {
                sections.visit(i % KEYS);
            }
        }));

        assertThat(sections.visits()).isEqualTo(THREADS);
        assertThat(sections.violations()).isZero();
        assertThat(pinned).extracting(VirtualThreadsTest::describe).isEmpty();
    }

    /**
     * Loads the classes of a wait and a handover, and opens the connections, on platform threads: a virtual thread that
     * loads a class from within a lambda of {@code ConcurrentHashMap.compute} is pinned while the class loads, once per
     * JVM, which is not what this test is about.
     */
    private void warmUp(RedisLock lock) throws Exception {
        String key = prefix + "warm-up";
        LockHandle first =
                lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))).orElseThrow();
        ExecutorService platform = Executors.newSingleThreadExecutor();
        try {
            Future<Boolean> second = platform.submit(() -> {
                Optional<LockHandle> handle =
                        lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)), Duration.ofSeconds(30));
                handle.ifPresent(LockHandle::release);
                return handle.isPresent();
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.waitingCount() == 1);
            first.release();
            assertThat(second.get(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            platform.shutdownNow();
        }
    }

    @Test
    void withoutTheLockTheSameVirtualThreadsMeetInTheirSections() throws Exception {
        Sections sections = new Sections(KEYS);

        onVirtualThreads(THREADS, i -> sections.visit(i % KEYS));

        assertThat(sections.visits()).isEqualTo(THREADS);
        assertThat(sections.violations()).isPositive();
    }

    @Test
    void aVirtualThreadThatWaitsWhilePinnedIsRecorded() throws Exception {
        List<RecordedEvent> pinned = recordPinning(() ->
                onVirtualThreads(1, i -> assertThat(SlowToInitialize.READY).isTrue()));

        assertThat(pinned).isNotEmpty();
    }

    /** Runs the task with each number below {@code count}, each on a virtual thread of its own, and waits for all. */
    private static void onVirtualThreads(int count, Task task) throws Exception {
        Method perTask = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        Method isVirtual = Thread.class.getMethod("isVirtual");
        ExecutorService threads = (ExecutorService) perTask.invoke(null);
        AtomicInteger platformThreads = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                int number = i;
                done.add(threads.submit(() -> {
                    if (!(Boolean) isVirtual.invoke(Thread.currentThread())) {
                        platformThreads.incrementAndGet();
                    }
                    task.run(number);
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get(240, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(platformThreads).hasValue(0);
    }

    /** The pinning events that the work caused, however short: JFR's default threshold would hide those under 20 ms. */
    private static List<RecordedEvent> recordPinning(Work work) throws Exception {
        Path file = Files.createTempFile("pinning", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            work.run();
            recording.stop();
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(event -> event.getEventType().getName().equals(PINNED))
                    .toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String describe(RecordedEvent event) {
        return event.getDuration() + " pinned at "
                + (event.getStackTrace() == null
                        ? "an unknown place"
                        : event.getStackTrace().getFrames().stream()
                                .limit(12)
                                .map(frame -> frame.getMethod().getType().getName() + "."
                                        + frame.getMethod().getName())
                                .toList());
    }

    @FunctionalInterface
    private interface Task {
        void run(int number) throws Exception;
    }

    @FunctionalInterface
    private interface Work {
        void run() throws Exception;
    }

    /**
     * Critical sections by number that count their visits and every visit that found another inside; each visit stays
     * a millisecond, long enough for an unlocked visitor to walk in.
     */
    private static final class Sections {

        private final AtomicIntegerArray inside;
        private final AtomicInteger visits = new AtomicInteger();
        private final AtomicInteger violations = new AtomicInteger();

        Sections(int count) {
            this.inside = new AtomicIntegerArray(count);
        }

        void visit(int section) throws InterruptedException {
            if (inside.incrementAndGet(section) != 1) {
                violations.incrementAndGet();
            }
            Thread.sleep(1);
            inside.decrementAndGet(section);
            visits.incrementAndGet();
        }

        int visits() {
            return visits.get();
        }

        int violations() {
            return violations.get();
        }
    }

    /** A class whose initialization waits: a virtual thread that waits in a class initializer is pinned. */
    private static final class SlowToInitialize {

        static final boolean READY = waitAWhile();

        private static boolean waitAWhile() {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }
    }
}
