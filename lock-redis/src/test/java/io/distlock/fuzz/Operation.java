package io.distlock.fuzz;

import java.util.Arrays;
import java.util.List;

/** How a fuzz worker takes and gives back a lock: every way the {@link io.distlock.Lock} API offers. */
enum Operation {
    TRY_NOW("tryAcquire(key, lease)"),
    TRY_WAIT("tryAcquire(key, lease, wait)"),
    ACQUIRE("acquire(key, lease)"),
    CALL("callWithLock"),
    RUN("runWithLock"),
    NESTED("re-entered, released in either order"),
    HANDOFF("released by another thread"),
    SEVERAL_KEYS("two keys: tryAcquireAll or acquireAll"),
    ASYNC_TRY("tryAcquireAsync(key, lease, wait)"),
    ASYNC_ACQUIRE("acquireAsync(key, lease, wait)");

    private final String label;

    Operation(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** Whether this operation takes the lock through the non-blocking API, which only asynchronous holders use. */
    boolean isAsync() {
        return this == ASYNC_TRY || this == ASYNC_ACQUIRE;
    }

    /** The operations that a run's holders draw from: the non-blocking ones, or all the others. */
    static List<Operation> forHolders(boolean async) {
        return Arrays.stream(values())
                .filter(operation -> operation.isAsync() == async)
                .toList();
    }
}
