package io.distlock.redis.internal.engine;

import io.distlock.LockHandle;
import io.distlock.internal.engine.GuardedObserver;
import io.distlock.internal.engine.HoldHandle;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.monitor.LockObserver.Acquisition;
import org.jspecify.annotations.Nullable;

/**
 * Tells a {@link io.distlock.redis.RedisLock}'s guarded observer what it does, observing each hold once: a nested
 * acquisition joins a hold whose observation has started already.
 */
public final class ObserverCalls {

    private final GuardedObserver observer;

    public ObserverCalls(LockObserver observer) {
        this.observer = new GuardedObserver(observer);
    }

    /** An attempt to take a lock: null if it was not taken. */
    @FunctionalInterface
    public interface Attempt<E extends Exception> {
        @Nullable
        LockHandle run() throws E;
    }

    /**
     * Runs an acquisition under observation: the observer hears it start and end, and hears a new hold start; a
     * nested acquisition that joins a hold of its scope starts no hold.
     */
    @Nullable
    public <E extends Exception> LockHandle acquisition(String key, LockKind kind, Attempt<E> attempt) throws E {
        if (observer.isSilent()) {
            return attempt.run();
        }
        Acquisition acquisition = observer.acquisitionStarted(key, kind);
        LockHandle handle;
        try {
            handle = attempt.run();
        } catch (Throwable e) {
            acquisition.failed(e);
            throw e;
        }
        if (handle == null) {
            acquisition.notAcquired();
            return null;
        }
        acquisition.acquired();
        held(handle, key, kind);
        return handle;
    }

    /** Starts observing an acquisition that no thread waits for; {@link #asyncEnded} follows, on any thread. */
    Acquisition asyncStarted(String key, LockKind kind) {
        return observer.asyncAcquisitionStarted(key, kind);
    }

    /**
     * Ends observing an acquisition that no thread waits for, before its caller hears of it, so that a hold is observed
     * before its caller can release it.
     *
     * @param handle the lock taken, or null if the acquisition ended without it
     * @param failure what ended the acquisition, if it failed or was cancelled
     */
    void asyncEnded(
            Acquisition acquisition,
            String key,
            LockKind kind,
            @Nullable LockHandle handle,
            @Nullable Throwable failure) {
        if (observer.isSilent()) {
            return;
        }
        if (failure != null) {
            acquisition.failed(failure);
        } else if (handle == null) {
            acquisition.notAcquired();
        } else {
            acquisition.acquired();
            held(handle, key, kind);
        }
    }

    /** Observes the hold of a handle just taken, unless a nested acquisition's hold is observed already. */
    public void held(LockHandle handle, String key, LockKind kind) {
        if (observer.isSilent() || !(handle instanceof HoldHandle<?> own) || !(own.hold() instanceof Hold hold)) {
            return;
        }
        hold.observe(() -> observer.holdStarted(key, kind, handle.fencingToken()));
    }

    void renewed(int holds) {
        observer.renewed(holds);
    }

    void renewalFailed(int holds) {
        observer.renewalFailed(holds);
    }

    void handedOver(String key) {
        observer.handedOver(key);
    }
}
