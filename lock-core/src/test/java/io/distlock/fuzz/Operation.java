package io.distlock.fuzz;

/** How a fuzz worker takes and gives back a lock: every way the {@link io.distlock.Lock} API offers. */
enum Operation {
    TRY_NOW("tryAcquire(key, lease)"),
    TRY_WAIT("tryAcquire(key, lease, wait)"),
    ACQUIRE("acquire(key, lease)"),
    CALL("callWithLock"),
    RUN("runWithLock"),
    NESTED("re-entered, released in either order"),
    HANDOFF("released by another thread"),
    SEVERAL_KEYS("two keys: tryAcquireAll or acquireAll");

    private final String label;

    Operation(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
