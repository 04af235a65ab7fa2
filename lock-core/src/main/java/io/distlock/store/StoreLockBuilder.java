package io.distlock.store;

import io.distlock.spi.HoldSettings;
import io.distlock.spi.LockBuilder;

/**
 * Builds a {@link StoreLock}: the settings every engine shares ({@link LockBuilder}) and the store's own; every
 * setting has a default, and {@link #build()} checks them together.
 */
public final class StoreLockBuilder extends LockBuilder<StoreLockBuilder> {

    private final LeaseStore store;
    private int maxCallsUnderWay = 256;

    StoreLockBuilder(LeaseStore store) {
        if (store == null) {
            throw new IllegalArgumentException("store must not be null");
        }
        this.store = store;
    }

    /**
     * The most store calls that this lock's waiting acquisitions (and the store checks of nested ones) have under way
     * at once, each on a worker thread. A call whose caller gave up at its deadline still counts until the store
     * answers it, so a store that stopped answering cannot make the lock start a thread per attempt without end; past
     * the bound, an acquisition fails at once with {@link io.distlock.LockBackendException}, without asking the store.
     * Renewals, releases and tries without a wait are not counted. Default 256.
     *
     * @param maxCallsUnderWay at least 1
     * @return this builder
     */
    public StoreLockBuilder maxCallsUnderWay(int maxCallsUnderWay) {
        this.maxCallsUnderWay = maxCallsUnderWay;
        return this;
    }

    /**
     * Builds the lock.
     *
     * @return the lock, which owns the store from now on
     * @throws IllegalArgumentException naming the setting that is out of range and what is allowed
     */
    public StoreLock build() {
        HoldSettings settings = holdSettings();
        if (maxCallsUnderWay < 1) {
            throw new IllegalArgumentException("max calls under way must be at least 1, but was " + maxCallsUnderWay);
        }
        return new StoreLock(store, settings, maxCallsUnderWay);
    }
}
