package io.distlock.tck.fuzz;

/**
 * Builds, in a worker JVM, the lock a fuzz run drives and the view through which the checker reads its state: the one
 * thing a backend (or a user's own {@link io.distlock.Lock}) implements to run the fuzz. A run names the factory's
 * class ({@link FuzzLock#factory()}), which the worker JVMs find on their class path: they run on the test class path
 * of the module that starts the run. Implementations are public and have a public constructor without arguments.
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
