package io.distlock.tck.fuzz;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fuzz worker JVMs of this JVM, kept between runs: starting a JVM, loading a lock's client classes and compiling
 * them cost a busy two-core machine several CPU seconds and up to half a minute of wall time per worker, which every
 * run after the first now skips. A run {@link #take}s as many workers as it has processes, idle ones first and new
 * ones for the rest, and afterwards gives back ({@link #giveBack}) those that ended their run well and {@link
 * #discard}s (kills) the others, so that a broken worker never serves another run. The pool grows to the most
 * processes a run asked for.
 *
 * <p>The workers end with this JVM: a worker exits at the end of its standard input, which this JVM's end closes, and
 * a shutdown hook closes it first and waits for them, so that they are gone when the build goes on and their CPU time
 * counts as this JVM's children's.
 */
final class WorkerPool {

    /** An idle worker needs well under a second to exit; one that does not by then is killed. */
    private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

    /** Most recently used first: its JIT has compiled the most of what the next run runs. */
    private static final Deque<WorkerProcess> IDLE = new ArrayDeque<>();

    /** Idle or serving a run, to end them all with this JVM. */
    private static final Set<WorkerProcess> ALL = new HashSet<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(WorkerPool::endAll, "fuzz-workers-end"));
    }

    private WorkerPool() {}

    /** {@code count} workers for a run, idle ones first; they wait for the run's {@link WorkerProcess#begin}. */
    static List<WorkerProcess> take(int count) throws InterruptedException {
        List<WorkerProcess> taken = new ArrayList<>();
        List<WorkerProcess> gone = new ArrayList<>();
        synchronized (WorkerPool.class) {
            while (taken.size() < count && !IDLE.isEmpty()) {
                WorkerProcess worker = IDLE.pop();
                (worker.isAlive() ? taken : gone).add(worker);
            }
            while (taken.size() < count) {
                WorkerProcess worker = WorkerProcess.start();
                ALL.add(worker);
                taken.add(worker);
            }
        }
        for (WorkerProcess worker : gone) {
            discard(worker);
        }
        return taken;
    }

    /** Keeps a worker that ended its run well for the next run. */
    static synchronized void giveBack(WorkerProcess worker) {
        IDLE.push(worker);
    }

    /** Kills a worker whose run failed or was cut short, and forgets it. */
    static void discard(WorkerProcess worker) throws InterruptedException {
        worker.close();
        synchronized (WorkerPool.class) {
            ALL.remove(worker);
        }
    }

    /** Ends every worker as this JVM exits: idle ones by the end of their input, the others at once. */
    private static void endAll() {
        List<WorkerProcess> workers;
        Set<WorkerProcess> idle;
        synchronized (WorkerPool.class) {
            workers = List.copyOf(ALL);
            idle = Set.copyOf(IDLE);
            for (WorkerProcess worker : workers) {
                worker.endRequests();
            }
        }
        long deadline = System.nanoTime() + EXIT_WAIT.toNanos();
        try {
            for (WorkerProcess worker : workers) {
                worker.awaitExitOrKill(idle.contains(worker) ? deadline : System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
