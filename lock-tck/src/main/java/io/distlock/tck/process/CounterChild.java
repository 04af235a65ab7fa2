package io.distlock.tck.process;

import io.distlock.Lock;
import io.distlock.LockHandle;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * A child JVM of the exclusion cases: connects its lock (the control builds none), prints {@value #READY}, waits for
 * {@value #GO} on its input, increments a {@link CounterFile} a number of times, each under the lock or, for the
 * control, without it, and prints {@value #DONE} and its count. Its lock is built by a {@link ProcessLockFactory}.
 * Arguments: the factory's class, the store's address, the key, the counter's file, the increments, and {@link Mode}.
 * Started by {@link ProcessContract}, never by hand.
 */
public final class CounterChild {

    static final String READY = "READY";
    static final String GO = "GO";
    static final String DONE = "DONE";

    /** Whether the increments take the lock. */
    enum Mode {
        LOCKED,
        UNLOCKED
    }

    private CounterChild() {}

    /**
     * Counts, and exits with 0, or with 1 if it failed.
     *
     * @param args the factory's class, the store's address, the key, the counter's file, the increments and the mode
     */
    public static void main(String[] args) {
        int status = 0;
        try {
            count(args);
        } catch (IOException | InterruptedException | RuntimeException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        // The lock's threads must not keep the process alive.
        System.exit(status);
    }

    static ChildJvm start(
            Class<? extends ProcessLockFactory> factory,
            String address,
            String key,
            Path counter,
            int increments,
            Mode mode) {
        return ChildJvm.start(
                CounterChild.class,
                factory.getName(),
                address,
                key,
                counter.toString(),
                Integer.toString(increments),
                mode.name());
    }

    private static void count(String[] args) throws IOException, InterruptedException {
        if (args.length != 6) {
            throw new IllegalArgumentException("expected the factory's class, the store's address, the key, the"
                    + " counter's file, the increments and the mode, but got " + List.of(args));
        }
        String key = args[2];
        CounterFile counter = new CounterFile(Path.of(args[3]));
        int increments = Integer.parseInt(args[4]);
        // The control builds no lock: it has nothing to connect, and its children are ready sooner.
        Increment increment = Mode.valueOf(args[5]) == Mode.LOCKED
                ? underTheLock(connectedLock(args[0], args[1], key), key, counter)
                : counter::increment;
        System.out.println(READY);
        System.out.flush();
        String signal = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (!GO.equals(signal)) {
            throw new IllegalStateException("expected " + GO + " on the input, but got " + signal);
        }
        for (int i = 0; i < increments; i++) {
            increment.run();
        }
        System.out.println(DONE + " " + increments);
    }

    /** The lock, connected before the ready line, so that all children count at once from the start signal. */
    private static Lock connectedLock(String factoryClass, String address, String key) throws InterruptedException {
        Lock lock = Factories.open(factoryClass, address, ProcessTimes.WATCHDOG_LEASE)
                .lock();
        take(lock, key + ":connect:" + ProcessHandle.current().pid()).release();
        return lock;
    }

    private static Increment underTheLock(Lock lock, String key, CounterFile counter) {
        return () -> {
            LockHandle held = take(lock, key);
            try {
                counter.increment();
            } finally {
                held.release();
            }
        };
    }

    private static LockHandle take(Lock lock, String key) throws InterruptedException {
        return lock.tryAcquire(key, ProcessTimes.LONG_LEASE, ProcessTimes.ACQUIRE_WAIT)
                .orElseThrow(() -> new IllegalStateException(key + " stayed taken for " + ProcessTimes.ACQUIRE_WAIT));
    }

    /** One increment of the counter. */
    @FunctionalInterface
    private interface Increment {
        void run() throws IOException, InterruptedException;
    }
}
