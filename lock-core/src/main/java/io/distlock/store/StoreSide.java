package io.distlock.store;

import io.distlock.internal.engine.ThreadOwnedHandles;
import org.jspecify.annotations.Nullable;

/**
 * Where a thread's holds of one {@link StoreLock} are found: the lock's holds, and the handles its threads own through
 * its views. A re-entry looks a key up here, in the lock's own side and, for the two sides of a read-write lock, in the
 * other one.
 */
record StoreSide(StoreHolds holds, ThreadOwnedHandles threadOwned) {

    /**
     * The hold that a scope or view lock of the current thread holds the key with on this side, if it is still active.
     *
     * @throws io.distlock.LockLostException if that hold was lost
     */
    @Nullable
    StoreHold heldInScope(String key) {
        StoreHold hold = threadOwned.heldByCurrentThread(key, holds, any -> true);
        if (hold == null) {
            return null;
        }
        if (holds.isLost(hold)) {
            throw hold.lostException();
        }
        return hold.isActive() ? hold : null;
    }
}
