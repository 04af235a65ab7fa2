package io.distlock.redis;

import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.monitor.LockObserver.Acquisition;
import io.distlock.monitor.LockObserver.Holding;
import io.distlock.spi.HoldHandle;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a lock's {@link LockObserver} so that nothing it throws reaches the lock: an observer's bug must never fail an
 * acquisition, skip a release or stop the renewer. What it throws is logged.
 */
final class ObserverCalls {

    private static final Logger log = LoggerFactory.getLogger(ObserverCalls.class);

    private final LockObserver observer;
    private final boolean silent;

    ObserverCalls(LockObserver observer) {
        this.observer = observer;
        this.silent = observer == LockObserver.NONE;
    }

    /** An attempt to take a lock: null if it was not taken. */
    @FunctionalInterface
    interface Attempt<E extends Exception> {
        @Nullable
        LockHandle run() throws E;
    }

    /**
     * Runs an acquisition under observation: the observer hears it start and end, and hears a new hold start; a
     * nested acquisition that joins a hold of its scope starts no hold.
     */
    @Nullable
    <E extends Exception> LockHandle acquisition(String key, LockKind kind, Attempt<E> attempt) throws E {
        if (silent) {
            return attempt.run();
        }
        Acquisition acquisition = call(() -> observer.acquisitionStarted(key, kind), Acquisition.NONE);
        LockHandle handle;
        try {
            handle = attempt.run();
        } catch (Throwable e) {
            run(() -> acquisition.failed(e));
            throw e;
        }
        if (handle == null) {
            run(acquisition::notAcquired);
            return null;
        }
        run(acquisition::acquired);
        held(handle, key, kind);
        return handle;
    }

    /** Starts observing an acquisition that no thread waits for; {@link #asyncEnded} follows, on any thread. */
    Acquisition asyncStarted(String key, LockKind kind) {
        return silent ? Acquisition.NONE : call(() -> observer.asyncAcquisitionStarted(key, kind), Acquisition.NONE);
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
        if (silent) {
            return;
        }
        if (failure != null) {
            run(() -> acquisition.failed(failure));
        } else if (handle == null) {
            run(acquisition::notAcquired);
        } else {
            run(acquisition::acquired);
            held(handle, key, kind);
        }
    }

    /** Observes the hold of a handle just taken, unless a nested acquisition's hold is observed already. */
    void held(LockHandle handle, String key, LockKind kind) {
        if (silent || !(handle instanceof HoldHandle<?> own) || !(own.hold() instanceof Hold hold)) {
            return;
        }
        hold.observe(() -> safe(call(() -> observer.holdStarted(key, kind, handle.fencingToken()), Holding.NONE)));
    }

    void renewed(int holds) {
        if (!silent) {
            run(() -> observer.renewed(holds));
        }
    }

    void renewalFailed(int holds) {
        if (!silent) {
            run(() -> observer.renewalFailed(holds));
        }
    }

    void handedOver(String key) {
        if (!silent) {
            run(() -> observer.handedOver(key));
        }
    }

    /** A holding whose calls cannot throw either: they come from the release, the renewer and the GC's cleaner. */
    private static Holding safe(Holding holding) {
        return new Holding() {
            @Override
            public void released() {
                run(holding::released);
            }

            @Override
            public void lost(LockLostException.Reason reason) {
                run(() -> holding.lost(reason));
            }

            @Override
            public void dropped() {
                run(holding::dropped);
            }
        };
    }

    private static <T> T call(java.util.function.Supplier<@Nullable T> call, T fallback) {
        try {
            T answer = call.get();
            return answer == null ? fallback : answer;
        } catch (RuntimeException e) {
            log.warn("A distlock LockObserver failed; the lock goes on without it", e);
            return fallback;
        }
    }

    private static void run(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("A distlock LockObserver failed; the lock goes on without it", e);
        }
    }
}
