package io.distlock.tck.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads a run starts in a worker JVM, which serves run after run: once the run's lock is closed they must all
 * have ended, or the next run would share the JVM with this one's clients, renewals and loops.
 *
 * <p>Two kinds are let be. Threads that every lock of a JVM shares by design: the JDK's common pool and {@code
 * CompletableFuture}'s delay scheduler, the threads of {@link java.lang.ref.Cleaner}s (which libraries keep one of for
 * the JVM, as the PostgreSQL driver does), Netty's global executor (whose thread ends a second after its last task, a
 * second that every Redis run would otherwise wait for), and distlock's own shared threads ({@code StoreLock}'s clock
 * and store calls, the Redis lock's asynchronous completions, the cleaner of dropped handles), which serve whichever
 * lock runs next. And a pool's thread that waits out its keep-alive for work that a closed lock no longer gives, which
 * ends by itself: distlock's Redis lock never shuts down its pool for callbacks of holds lost at its close, whose
 * thread ends 5 s after its last callback.
 */
final class RunThreads {

    /** Long enough for clients that end their threads just after their close returns (Netty's event loops). */
    private static final Duration ENDING = Duration.ofSeconds(10);

    private static final long SLICE_MILLIS = 50;

    /** Name prefixes of the threads that every lock of a JVM shares, other than the common pool's. */
    private static final List<String> SHARED_THREADS = List.of(
            "CompletableFutureDelayScheduler",
            "Cleaner-",
            "globalEventExecutor-",
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
     * Waits, up to a bound, for the threads the run started to end or to idle in a pool until their keep-alive ends.
     *
     * @return those still alive and not idle, other than the shared threads
     */
    List<Thread> leftBehind() throws InterruptedException {
        long deadline = System.nanoTime() + ENDING.toNanos();
        List<Thread> left = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (before.contains(thread) || shared(thread)) {
                continue;
            }
            // In slices, since a thread that finishes its pool's last task idles rather than ends.
            while (thread.isAlive() && !idleUntilKeepAliveEnds(thread) && System.nanoTime() - deadline < 0) {
                thread.join(Math.max(
                        1, Math.min(SLICE_MILLIS, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
            }
            if (thread.isAlive() && !idleUntilKeepAliveEnds(thread)) {
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

    /** Whether a pool's thread waits for work only until its keep-alive ends, and then ends unless it got some. */
    private static boolean idleUntilKeepAliveEnds(Thread thread) {
        StackTraceElement[] stack = thread.getStackTrace();
        for (int frame = 1; frame < stack.length; frame++) {
            if (stack[frame].getClassName().equals(ThreadPoolExecutor.class.getName())
                    && stack[frame].getMethodName().equals("getTask")) {
                // getTask waits with poll(keepAlive) where the thread may time out, and with take() where it may not.
                return stack[frame - 1].getMethodName().equals("poll");
            }
        }
        return false;
    }

    private static boolean shared(Thread thread) {
        if (thread instanceof ForkJoinWorkerThread worker && worker.getPool() == ForkJoinPool.commonPool()) {
            return true;
        }
        return SHARED_THREADS.stream().anyMatch(thread.getName()::startsWith);
    }
}
