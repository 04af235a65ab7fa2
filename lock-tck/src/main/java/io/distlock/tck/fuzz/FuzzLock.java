package io.distlock.tck.fuzz;

import java.util.Map;
import java.util.Objects;

/**
 * The lock a fuzz run drives: the {@link FuzzLockFactory} that builds it in every worker JVM, the factory's own name
 * for which lock to build, and what the run's sections do with it.
 *
 * @param label what the lock is, for the run's report, such as {@code distlock StoreLock}
 * @param factory the factory's class, found by name on the class path of the worker JVMs, which is the test class path
 *     of the module that starts the run
 * @param variant which lock the factory builds, in its own terms ({@link FuzzTarget#variant()}); also part of the run's
 *     key namespace
 * @param mix what the run's sections do
 * @param options settings the factory reads in every worker ({@link FuzzTarget#options()}), such as a client timeout
 */
public record FuzzLock(
        String label,
        Class<? extends FuzzLockFactory> factory,
        String variant,
        SectionMix mix,
        Map<String, String> options) {

    /** The variant of {@link #storeLock}: {@code StoreLock} over the backend's own store. */
    public static final String STORE = "STORE";

    /** The variant of {@link #shortLeaseStoreLock}: {@code StoreLock} over a {@link ShortLeaseStore}. */
    public static final String SHORT_LEASE_STORE = "SHORT_LEASE_STORE";

    /** The variant of {@link #storeSemaphore}: the semaphore of {@code StoreLock} over the backend's own store. */
    public static final String STORE_SEMAPHORE = "STORE_SEMAPHORE";

    /** The variant of {@link #storeSemaphoreOfOneTooMany}: that semaphore with one permit more than allowed. */
    public static final String STORE_SEMAPHORE_OF_ONE_TOO_MANY = "STORE_SEMAPHORE_OF_ONE_TOO_MANY";

    /** The variant of {@link #storeFair}: the fair lock of {@code StoreLock} over the backend's own store. */
    public static final String STORE_FAIR = "STORE_FAIR";

    /** The variant of {@link #storeReadWrite}: {@code StoreLock} over the backend's own store, and its read lock. */
    public static final String STORE_READ_WRITE = "STORE_READ_WRITE";

    /** The variant of {@link #storePath}: the path lock of {@code StoreLock} over the backend's own store. */
    public static final String STORE_PATH = "STORE_PATH";

    /**
     * Checks the components and copies the options.
     *
     * @throws IllegalArgumentException if the variant is empty
     */
    public FuzzLock {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(mix, "mix");
        if (variant.isEmpty()) {
            throw new IllegalArgumentException("a fuzz lock needs a variant its factory knows");
        }
        options = Map.copyOf(options);
    }

    /**
     * A lock without options.
     *
     * @param label what the lock is, for the report
     * @param factory the factory that builds it in the workers
     * @param variant which lock the factory builds
     * @param mix what the sections do
     * @return the lock
     */
    public static FuzzLock of(String label, Class<? extends FuzzLockFactory> factory, String variant, SectionMix mix) {
        return new FuzzLock(label, factory, variant, mix, Map.of());
    }

    /**
     * {@code StoreLock} over a backend's {@code LeaseStore}, which {@code factory} builds for the variant {@link
     * #STORE} and wraps with {@link FuzzTarget#leaseStore}: a lock that must never let two holders in.
     *
     * @param factory the backend's factory
     * @return the lock, with every operation of the API ({@link SectionMix#EXCLUSIVE})
     */
    public static FuzzLock storeLock(Class<? extends FuzzLockFactory> factory) {
        return of("distlock StoreLock", factory, STORE, SectionMix.EXCLUSIVE);
    }

    /**
     * The control of {@link #storeLock}: the same factory's {@code StoreLock} over a {@link ShortLeaseStore} (variant
     * {@link #SHORT_LEASE_STORE}), whose store lets each key go after a thousandth of its lease, which the checker
     * must catch.
     *
     * @param factory the backend's factory
     * @return the broken lock ({@link SectionMix#CONTROL})
     */
    public static FuzzLock shortLeaseStoreLock(Class<? extends FuzzLockFactory> factory) {
        return of(
                "broken: StoreLock whose store keeps a key for a thousandth of the lease",
                factory,
                SHORT_LEASE_STORE,
                SectionMix.CONTROL);
    }

    /**
     * The semaphore of {@code StoreLock} over a backend's {@code LeaseStore} ({@code Kind.SEMAPHORE}), which {@code
     * factory} builds for the variant {@link #STORE_SEMAPHORE}, with {@link FuzzTarget#permits()} permits a key: it
     * must never let more sections into a key than it has permits.
     *
     * @param factory the backend's factory
     * @return the lock, whose sections all take permits ({@link SectionMix#PERMITS})
     */
    public static FuzzLock storeSemaphore(Class<? extends FuzzLockFactory> factory) {
        return of(
                "distlock StoreLock semaphore (" + SectionMix.PERMITS_PER_KEY + " permits a key)",
                factory,
                STORE_SEMAPHORE,
                SectionMix.PERMITS);
    }

    /**
     * The control of {@link #storeSemaphore}: the same semaphore with one permit more than the checker counts (variant
     * {@link #STORE_SEMAPHORE_OF_ONE_TOO_MANY}), which the checker must catch.
     *
     * @param factory the backend's factory
     * @return the broken lock ({@link SectionMix#PERMITS})
     */
    public static FuzzLock storeSemaphoreOfOneTooMany(Class<? extends FuzzLockFactory> factory) {
        return of(
                "broken: a semaphore of " + (SectionMix.PERMITS_PER_KEY + 1) + " permits where "
                        + SectionMix.PERMITS_PER_KEY + " are allowed",
                factory,
                STORE_SEMAPHORE_OF_ONE_TOO_MANY,
                SectionMix.PERMITS);
    }

    /**
     * {@code StoreLock} over a backend's {@code LeaseStore} and its read lock ({@code Kind.READ}), which {@code factory}
     * builds for the variant {@link #STORE_READ_WRITE} and hands the run as {@link LockUnderTest.Builder#readers}: its
     * readers may share a key, but a writer must overlap no one.
     *
     * @param factory the backend's factory
     * @return the lock, whose sections read or write ({@link SectionMix#READ_WRITE})
     */
    public static FuzzLock storeReadWrite(Class<? extends FuzzLockFactory> factory) {
        return of("distlock StoreLock and its read lock", factory, STORE_READ_WRITE, SectionMix.READ_WRITE);
    }

    /**
     * The fair lock of {@code StoreLock} over a backend's {@code LeaseStore} ({@code Kind.FAIR}), which {@code factory}
     * builds for the variant {@link #STORE_FAIR}: a lock that must never let two holders in.
     *
     * @param factory the backend's factory
     * @return the lock, with every operation of the API ({@link SectionMix#EXCLUSIVE})
     */
    public static FuzzLock storeFair(Class<? extends FuzzLockFactory> factory) {
        return of("distlock StoreLock's fair lock", factory, STORE_FAIR, SectionMix.EXCLUSIVE);
    }

    /**
     * The path lock of {@code StoreLock} over a backend's {@code LeaseStore} ({@code Kind.PATH}), on the tree {@link
     * FuzzTarget#treeName()}, which {@code factory} builds for the variant {@link #STORE_PATH}: a path must never be
     * entered while it, an ancestor or a descendant is held.
     *
     * @param factory the backend's factory
     * @return the lock, whose sections take paths of one tree ({@link SectionMix#PATHS})
     */
    public static FuzzLock storePath(Class<? extends FuzzLockFactory> factory) {
        return of("distlock StoreLock's path lock (paths of one tree)", factory, STORE_PATH, SectionMix.PATHS);
    }
}
