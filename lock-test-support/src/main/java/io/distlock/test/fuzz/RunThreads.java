package io.distlock.test.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

/**
 * The threads a run starts in a worker JVM, which serves run after run: once the run's lock is closed they must all
 * have ended, or the next run would share the JVM with this one's clients, renewals and loops. Only threads that every
 * lock of a JVM shares by design are let be: the JDK's common pool and {@code CompletableFuture}'s delay scheduler,
 * the threads of {@link java.lang.ref.Cleaner}s (which libraries keep one of for the JVM, as the PostgreSQL driver
 * does), and distlock's own shared threads ({@code
 * StoreLock}'s clock and store calls, the Redis lock's asynchronous completions, the cleaner of dropped handles), which
 * serve whichever lock runs next; the pools among them end idle threads by themselves.
 */
final class RunThreads {

    /**
     * Long enough for clients that end their threads just after their close returns (Netty's event loops, a pool's
     * last connection closer), and for Netty's global executor, which ends a second after its last task.
     */
    private static final Duration ENDING = Duration.ofSeconds(10);

    /** Name prefixes of the threads that every lock of a JVM shares, other than the common pool's. */
    private static final List<String> SHARED_THREADS = List.of(
            "CompletableFutureDelayScheduler",
            "Cleaner-",
            "distlock-store-",
            "distlock-async",
            "distlock-dropped-handles");

    private final Set<Thread> before;

    private RunThreads(Set<Thread> before) {
        this.before = before;
    }

    /** The threads alive now, before the run starts any. */
    static RunThreads beforeTheRun() {
        return new RunThreads(Set.copyOf(Thread.getAllStackTraces().keySet()));
    }

    /**
     * Waits, up to a bound, for the threads the run started to end.
     *
     * @return those still alive, other than the shared pools' threads
     */
    List<Thread> leftBehind() throws InterruptedException {
        long deadline = System.nanoTime() + ENDING.toNanos();
        List<Thread> left = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (before.contains(thread) || shared(thread)) {
                continue;
            }
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                left.add(thread);
            }
        }
        return left;
    }

    /** One line about a thread left behind, with where it is, for the worker's output. */
    static String describe(Thread thread) {
        StringBuilder line = new StringBuilder(thread.getName())
                .append(thread.isDaemon() ? " (daemon, " : " (")
                .append(thread.getState())
                .append(')');
        StackTraceElement[] stack = thread.getStackTrace();
        for (int frame = 0; frame < Math.min(stack.length, 8); frame++) {
            line.append(" | at ").append(stack[frame]);
        }
        return line.toString();
    }

    private static boolean shared(Thread thread) {
        if (thread instanceof ForkJoinWorkerThread worker && worker.getPool() == ForkJoinPool.commonPool()) {
            return true;
        }
        return SHARED_THREADS.stream().anyMatch(thread.getName()::startsWith);
    }
}
