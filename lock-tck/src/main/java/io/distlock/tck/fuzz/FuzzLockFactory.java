package io.distlock.tck.fuzz;

/**
 * Builds, in a worker JVM, the lock a fuzz run drives and the view through which the checker reads its state: the one
 * thing a backend (or a user's own {@link io.distlock.Lock}) implements to run the fuzz. A run names the factory's
 * class ({@link FuzzLock#factory()}), which the worker JVMs find on their class path: they run on the test class path
 * of the module that starts the run. Implementations are public and have a public constructor without arguments.
 *
 * <p>A worker JVM serves one run after another, each with a lock of its own from this factory: what a run's lock
 * opens (clients, connections, threads) must end when it is closed, and a run whose threads outlive its lock's close
 * fails with an error, since they would run on beside the next run.
 */
public interface FuzzLockFactory {

    /**
     * Connects to the store and builds the lock that {@code target} asks for.
     *
     * @param target what the run asks for: where the store is, which lock, the watchdog lease to renew with
     * @return the lock under test with its view; closing it closes everything this method opened
     */
    LockUnderTest open(FuzzTarget target);
}
