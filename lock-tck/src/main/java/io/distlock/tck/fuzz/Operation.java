package io.distlock.tck.fuzz;

import java.util.Arrays;
import java.util.List;

/** How a fuzz worker takes and gives back a lock: every way the {@link io.distlock.Lock} API offers. */
public enum Operation {
    /** {@code tryAcquire(key, lease)}: one try. */
    TRY_NOW("tryAcquire(key, lease)"),
    /** {@code tryAcquire(key, lease, wait)}. */
    TRY_WAIT("tryAcquire(key, lease, wait)"),
    /** {@code acquire(key, lease)}, waiting as long as it takes. */
    ACQUIRE("acquire(key, lease)"),
    /** {@code callWithLock}, the work finding its handle through {@code LockContext}. */
    CALL("callWithLock"),
    /** {@code runWithLock}, the work finding its handle through {@code LockContext}. */
    RUN("runWithLock"),
    /** Re-entered inside a scope that holds the lock, the inner and the outer handle released in either order. */
    NESTED("re-entered, released in either order"),
    /** Released by another thread than the one that acquired it. */
    HANDOFF("released by another thread"),
    /** Two keys at once, all or none: {@code tryAcquireAll} or {@code acquireAll}. */
    SEVERAL_KEYS("two keys: tryAcquireAll or acquireAll"),
    /** {@code tryAcquireAsync(key, lease, wait)}, no thread waiting; asynchronous holders only. */
    ASYNC_TRY("tryAcquireAsync(key, lease, wait)"),
    /** {@code acquireAsync(key, lease, wait)}, no thread waiting; asynchronous holders only. */
    ASYNC_ACQUIRE("acquireAsync(key, lease, wait)");

    private final String label;

    Operation(String label) {
        this.label = label;
    }

    /**
     * The operation as the report names it.
     *
     * @return its label
     */
    public String label() {
        return label;
    }

    /**
     * Whether this operation takes the lock through the non-blocking API, which only asynchronous holders use.
     *
     * @return true for the non-blocking operations
     */
    public boolean isAsync() {
        return this == ASYNC_TRY || this == ASYNC_ACQUIRE;
    }

    /**
     * The operations that a run's holders draw from: the non-blocking ones, or all the others.
     *
     * @param async whether the run's holders are asynchronous ({@link FuzzSettings#asyncHolders()})
     * @return the operations
     */
    public static List<Operation> forHolders(boolean async) {
        return Arrays.stream(values())
                .filter(operation -> operation.isAsync() == async)
                .toList();
    }
}
