package io.distlock.fuzz;

/**
 * Builds, in a worker JVM, the lock of a run in a store other than Redis ({@link LockKind#inStore()}) and the view
 * through which the checker reads that store's state of a key. lock-core cannot depend on the backend modules, so a
 * run names its factory's class ({@link WorkerConfig#storeFactory()}), which the backend module's test code provides:
 * the workers run on the test class path of the module that starts them. Implementations have a constructor without
 * arguments.
 */
interface FuzzLockFactory {

    /**
     * Connects to the store and builds the lock of {@code kind}, whose handles' keys are the store's keys.
     *
     * @param address where the store is, in the form this factory takes, such as a JDBC URL
     * @param kind {@link LockKind#STORE}, or {@link LockKind#SHORT_LEASE_STORE} for the lock over a
     *     {@link ShortLeaseStore}
     */
    LockUnderTest open(String address, LockKind kind);

    /** The factory named by {@code config}, instantiated on the worker's class path. */
    static FuzzLockFactory of(WorkerConfig config) {
        try {
            return Class.forName(config.storeFactory())
                    .asSubclass(FuzzLockFactory.class)
                    .getDeclaredConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no lock factory " + config.storeFactory() + " on the class path", e);
        }
    }
}
