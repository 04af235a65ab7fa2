package io.distlock.internal.engine;

import io.distlock.monitor.BackendState;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import java.util.List;
import java.util.Map;

/**
 * A lock that answers as an {@link InspectableLock} through its engine's inspection: what every engine's lock would
 * otherwise delegate one method at a time. A lock overrides a method only to check its argument or to document what
 * its store answers.
 */
public abstract class InspectedLock implements InspectableLock {

    private final InspectableLock inspection;

    /** @param inspection the engine's inspection: holds and waiters from memory, keys and health from the store */
    protected InspectedLock(InspectableLock inspection) {
        this.inspection = inspection;
    }

    @Override
    public List<HeldLock> heldLocks() {
        return inspection.heldLocks();
    }

    @Override
    public int heldCount() {
        return inspection.heldCount();
    }

    @Override
    public Map<String, Integer> waitingThreads() {
        return inspection.waitingThreads();
    }

    @Override
    public int waitingCount() {
        return inspection.waitingCount();
    }

    @Override
    public KeyState keyState(String key) {
        return inspection.keyState(key);
    }

    @Override
    public BackendState checkBackend() {
        return inspection.checkBackend();
    }

    @Override
    public boolean releaseForOperator(String key, long fencingToken) {
        return inspection.releaseForOperator(key, fencingToken);
    }
}
