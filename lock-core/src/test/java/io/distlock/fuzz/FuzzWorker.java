package io.distlock.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A worker process of a fuzz run: {@link WorkerConfig} as arguments; prints {@value #READY} once connected, waits for
 * the run's start signal in Redis, runs its threads for the run's duration and prints its {@link Tally} summary line.
 * Exits with 0, or 1 if it failed, 2 if worker threads hung (their stacks are printed), 3 if the start signal never
 * came.
 */
public final class FuzzWorker {

    static final String READY = "FUZZ-READY";
    static final String HUNG = "FUZZ-HUNG";

    /** How long after the run's end a thread may still be finishing its last section, waiting behind others. */
    static final Duration GRACE = Duration.ofSeconds(20);

    private static final Duration START_SIGNAL_WAIT = Duration.ofSeconds(120);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private FuzzWorker() {}

    public static void main(String[] args) {
        int status;
        try {
            status = run(WorkerConfig.parse(args));
        } catch (InterruptedException | RuntimeException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        // Lettuce and executor threads must not keep the process alive after its summary.
        System.exit(status);
    }

    private static int run(WorkerConfig config) throws InterruptedException {
        LettuceConnectionFactory lockConnections = connect(config);
        LettuceConnectionFactory checkerConnections = connect(config);
        ExecutorService releaser = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "fuzz-releaser");
            thread.setDaemon(true);
            return thread;
        });
        try (LockUnderTest target = LockUnderTest.open(config.kind(), lockConnections, config.lockPrefix())) {
            StringRedisTemplate checkerRedis = new StringRedisTemplate(checkerConnections);
            checkerRedis.afterPropertiesSet();
            CheckerKeys keys = new CheckerKeys(config.namespace());
            SectionChecker checker = new SectionChecker(checkerRedis, keys, new SameRedisLockView());
            Workload workload = Workload.of(config.kind(), config.keyNames());
            Tally tally = new Tally();
            System.out.println(READY + " process " + config.process());
            System.out.flush();
            if (!awaitStart(checkerRedis, keys)) {
                System.out.println(Tally.ERROR + " no start signal within " + START_SIGNAL_WAIT);
                return 3;
            }
            long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(config.seconds());
            SplittableRandom seeds = new SplittableRandom(config.seed());
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < config.threads(); t++) {
                String name = "p" + config.process() + "t" + t;
                FuzzLoop loop = new FuzzLoop(target, checker, workload, tally, releaser, seeds.split(), name, endNanos);
                Thread thread = new Thread(t == 0 ? loop.openingWithRenewedHold() : loop, "fuzz-" + name);
                threads.add(thread);
                thread.start();
            }
            int hung = awaitThreads(threads, endNanos + GRACE.toNanos());
            for (int i = 0; i < hung; i++) {
                tally.add(Count.HUNG_THREADS);
            }
            System.out.println(tally.summaryLine());
            return hung > 0 ? 2 : 0;
        } finally {
            releaser.shutdownNow();
            lockConnections.destroy();
            checkerConnections.destroy();
        }
    }

    private static boolean awaitStart(StringRedisTemplate redis, CheckerKeys keys) throws InterruptedException {
        long deadline = System.nanoTime() + START_SIGNAL_WAIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (Boolean.TRUE.equals(redis.hasKey(keys.go()))) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    /** Waits for the threads until {@code deadlineNanos}; prints and interrupts those still running. */
    private static int awaitThreads(List<Thread> threads, long deadlineNanos) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
        }
        Map<Thread, StackTraceElement[]> stacks = Thread.getAllStackTraces();
        int hung = 0;
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                hung++;
                StringBuilder stack = new StringBuilder(HUNG + " " + thread.getName() + " still running:");
                for (StackTraceElement frame : stacks.getOrDefault(thread, new StackTraceElement[0])) {
                    stack.append(" | at ").append(frame);
                }
                System.out.println(stack);
                thread.interrupt();
            }
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        return hung;
    }

    private static LettuceConnectionFactory connect(WorkerConfig config) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(config.host(), config.port()),
                LettuceClientConfiguration.builder()
                        .commandTimeout(COMMAND_TIMEOUT)
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
