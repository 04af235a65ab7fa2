package io.distlock.tck.process;

import java.time.Duration;

/** Finds a backend's {@link ProcessLockFactory} by the name of its class and builds its lock. */
final class Factories {

    private Factories() {}

    /**
     * Builds the lock of the factory named {@code factoryClass}, on this JVM's class path.
     *
     * @throws IllegalStateException if there is no such factory
     */
    static OpenedLock open(String factoryClass, String address, Duration watchdogLease) {
        ProcessLockFactory factory;
        try {
            factory = Class.forName(factoryClass)
                    .asSubclass(ProcessLockFactory.class)
                    .getDeclaredConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("no ProcessLockFactory " + factoryClass + " on the class path", e);
        }
        return factory.open(address, watchdogLease);
    }
}
