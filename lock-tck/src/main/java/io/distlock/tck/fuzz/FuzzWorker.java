package io.distlock.tck.fuzz;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockHandle;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A worker process of fuzz runs, which serves one run after another for the JVM that started it: reads a run's {@link
 * WorkerConfig} as a line of its standard input, builds the lock through the run's {@link FuzzLockFactory}, prints
 * {@value #READY} once connected, waits for the run's start signal from the parent's witness, runs its threads (or with
 * asynchronous holders, as many chains of acquisitions in flight) for the run's duration, prints its {@link Tally}
 * summary line, closes the lock, checks that the run's threads have ended ({@link RunThreads}) and prints {@value
 * #DONE} with the run's status: 0, or 1 if it failed, 2 if worker threads hung (their stacks are printed), 3 if the
 * start signal never came, 4 if threads of the run outlived its lock. It then waits for the next run; after a run that
 * did not end with 0 it exits with that status instead, since whatever went wrong may still be running. The end of its
 * standard input, which the parent closes or leaves with it, ends it. Started by the run on the class path of the JVM
 * that starts it, never by hand.
 */
public final class FuzzWorker {

    static final String READY = "FUZZ-READY";
    static final String DONE = "FUZZ-DONE";
    static final String HUNG = "FUZZ-HUNG";

    /** How long after the run's end a thread may still be finishing its last section, waiting behind others. */
    static final Duration GRACE = Duration.ofSeconds(20);

    private static final Duration START_SIGNAL_WAIT = Duration.ofSeconds(120);
    /** Short, so that a warm-up lock whose release failed holds up the run's first sections only briefly. */
    private static final Lease WARM_UP_LEASE = Lease.fixed(Duration.ofSeconds(1));

    /** Reads the lock keys as no section's, to warm up the view's connections. */
    private static final String WARM_UP_OWNER = "fuzz-warm-up";

    private FuzzWorker() {}

    /**
     * Serves runs until its standard input ends, or a run fails, and exits with the status of the last run.
     *
     * @param args none: each run's {@link WorkerConfig} comes as a line of standard input
     */
    public static void main(String[] args) {
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int status = 0;
        try {
            String request;
            while (status == 0 && (request = requests.readLine()) != null) {
                status = serve(request);
                System.out.println(DONE + " " + status);
                System.out.flush();
            }
        } catch (IOException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        // Hung threads, or a lock's client threads after a failed run, must not keep the process alive.
        System.exit(status);
    }

    /** Runs one run and checks that it left no thread behind; returns its status. */
    private static int serve(String request) {
        RunThreads threads = RunThreads.beforeTheRun();
        try {
            int status = run(WorkerConfig.parse(request));
            if (status != 0) {
                return status;
            }
            List<Thread> left = threads.leftBehind();
            for (Thread thread : left) {
                System.out.println(Tally.ERROR + " thread of the run alive after its lock was closed: "
                        + RunThreads.describe(thread));
            }
            return left.isEmpty() ? 0 : 4;
        } catch (InterruptedException | RuntimeException e) {
            e.printStackTrace(System.out);
            return 1;
        }
    }

    private static int run(WorkerConfig config) throws InterruptedException {
        FuzzLockFactory factory = factory(config.factory());
        ExecutorService releaser = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "fuzz-releaser");
            thread.setDaemon(true);
            return thread;
        });
        Tally tally = new Tally();
        FuzzTarget request = new FuzzTarget(
                config.address(), config.variant(), config.options(), config.lockPrefix(), tally.viewCounts());
        try (WitnessClient witness = new WitnessClient(config.witnessPort());
                LockUnderTest target = factory.open(request)) {
            LockView lockView = target.view();
            Checker checker = new Checker(witness, lockView);
            Workload workload = Workload.of(config.mix(), config.keyNames());
            if (target.warmsUp()) {
                connectToEveryServer(target, lockView, workload, config.keyNames());
            }
            System.out.println(READY + " process " + config.process());
            System.out.flush();
            if (!witness.awaitStart(START_SIGNAL_WAIT)) {
                System.out.println(Tally.ERROR + " no start signal within " + START_SIGNAL_WAIT);
                return 3;
            }
            long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(config.seconds());
            SplittableRandom seeds = new SplittableRandom(config.seed());
            List<FuzzLoop> loops = new ArrayList<>();
            for (int t = 0; t < config.threads(); t++) {
                String name = "p" + config.process() + (config.asyncHolders() ? "a" : "t") + t;
                FuzzLoop loop = new FuzzLoop(target, checker, workload, tally, releaser, seeds.split(), name, endNanos);
                loops.add(t == 0 ? loop.openingWithRenewedHold() : loop);
            }
            int hung = config.asyncHolders()
                    ? runChains(loops, endNanos + GRACE.toNanos())
                    : runThreads(loops, config.process(), endNanos + GRACE.toNanos());
            for (int i = 0; i < hung; i++) {
                tally.add(Count.HUNG_THREADS);
            }
            if (hung > 0) {
                describeKeys(target, lockView, workload, config.keyNames());
            }
            System.out.println(tally.summaryLine());
            return hung > 0 ? 2 : 0;
        } finally {
            releaser.shutdownNow();
        }
    }

    /** The factory of this class name, instantiated on the worker's class path. */
    private static FuzzLockFactory factory(String className) {
        try {
            return Class.forName(className)
                    .asSubclass(FuzzLockFactory.class)
                    .getDeclaredConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("no lock factory " + className + " on the class path", e);
        }
    }

    /**
     * Takes and releases each key's lock once, as the sections write it, and reads each key as the checker does, so
     * that the lock's and the view's clients have found a cluster's topology and connected to every master, Redlock
     * node, Redis or store before the run starts, not in its first seconds. The checker does not see these
     * acquisitions; they only advance the fencing counters.
     */
    private static void connectToEveryServer(
            LockUnderTest target, LockView lockView, Workload workload, List<String> keyNames)
            throws InterruptedException {
        for (String name : keyNames) {
            String key = workload.written(name);
            try {
                target.lock().tryAcquire(key, WARM_UP_LEASE).ifPresent(LockHandle::release);
                lockView.read(target.lockKey(workload.handleKey(key), false), WARM_UP_OWNER);
            } catch (LockException | LockView.Unreadable e) {
                // A first connection too slow for a busy machine, even for the lease: the run's sections go on.
                System.out.println("warming up on " + key + " failed: " + e);
            }
        }
    }

    /** Prints what the store keeps for each key, after a run whose threads hung: who blocks whom. */
    private static void describeKeys(
            LockUnderTest target, LockView lockView, Workload workload, List<String> keyNames) {
        for (String name : keyNames) {
            String lockKey = target.lockKey(workload.handleKey(workload.written(name)), false);
            String stored = lockView.describe(lockKey);
            if (!stored.isEmpty()) {
                System.out.println(HUNG + " key " + lockKey + ": " + stored);
            }
        }
    }

    private static int runThreads(List<FuzzLoop> loops, int process, long deadlineNanos) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < loops.size(); t++) {
            Thread thread = new Thread(loops.get(t), "fuzz-p" + process + "t" + t);
            threads.add(thread);
            thread.start();
        }
        return awaitThreads(threads, deadlineNanos);
    }

    /**
     * Runs each loop as a chain of asynchronous holders, all in flight at once, and waits for them until {@code
     * deadlineNanos}; prints those still running, and interrupts their sections.
     */
    private static int runChains(List<FuzzLoop> loops, long deadlineNanos) throws InterruptedException {
        ExecutorService holders = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "fuzz-holder");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<CompletableFuture<Void>> chains =
                    loops.stream().map(loop -> loop.runAsync(holders)).toList();
            try {
                CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new))
                        .get(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // A chain that has not ended is counted below; chains count their own failures and never fail.
            }
            int hung = 0;
            for (int a = 0; a < chains.size(); a++) {
                if (!chains.get(a).isDone()) {
                    hung++;
                    System.out.println(HUNG + " chain " + a + " still waiting for its lock or inside its section");
                }
            }
            return hung;
        } finally {
            holders.shutdownNow();
        }
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
}
