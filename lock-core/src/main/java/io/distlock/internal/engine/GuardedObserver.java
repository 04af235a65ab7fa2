package io.distlock.internal.engine;

import io.distlock.LockLostException;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.monitor.LockObserver.Acquisition;
import io.distlock.monitor.LockObserver.Holding;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a lock's {@link LockObserver} so that nothing it throws reaches the lock: an observer's bug must never fail an
 * acquisition, skip a release or stop a renewal. What it throws is logged, and the lock goes on without it. The
 * acquisitions and holdings it hands out are guarded the same way.
 */
public final class GuardedObserver {

    private static final Logger log = LoggerFactory.getLogger(GuardedObserver.class);

    private final LockObserver observer;
    private final boolean silent;

    /** @param observer the observer to guard; {@link LockObserver#NONE} costs nothing */
    public GuardedObserver(LockObserver observer) {
        this.observer = observer;
        this.silent = observer == LockObserver.NONE;
    }

    /**
     * Whether the observer hears nothing, so that a caller can skip the work of telling it.
     *
     * @return whether the observer is {@link LockObserver#NONE}
     */
    public boolean isSilent() {
        return silent;
    }

    /**
     * Tells the observer that a caller started to acquire a key.
     *
     * @param key the key
     * @param kind the kind of lock asked for
     * @return the observation of that acquisition, guarded
     */
    public Acquisition acquisitionStarted(String key, LockKind kind) {
        return silent ? Acquisition.NONE : safe(call(() -> observer.acquisitionStarted(key, kind), Acquisition.NONE));
    }

    /**
     * Tells the observer that an acquisition started that no thread waits for.
     *
     * @param key the key
     * @param kind the kind of lock asked for
     * @return the observation of that acquisition, guarded
     */
    public Acquisition asyncAcquisitionStarted(String key, LockKind kind) {
        return silent
                ? Acquisition.NONE
                : safe(call(() -> observer.asyncAcquisitionStarted(key, kind), Acquisition.NONE));
    }

    /**
     * Tells the observer that a hold started.
     *
     * @param key the key held
     * @param kind the kind of lock held
     * @param fencingToken the hold's fencing token
     * @return the observation of that hold, guarded
     */
    public Holding holdStarted(String key, LockKind kind, long fencingToken) {
        return silent ? Holding.NONE : safe(call(() -> observer.holdStarted(key, kind, fencingToken), Holding.NONE));
    }

    /**
     * Tells the observer that leases were renewed.
     *
     * @param holds how many
     */
    public void renewed(int holds) {
        if (!silent) {
            run(() -> observer.renewed(holds));
        }
    }

    /**
     * Tells the observer that renewals failed and are tried again until the leases run out.
     *
     * @param holds how many
     */
    public void renewalFailed(int holds) {
        if (!silent) {
            run(() -> observer.renewalFailed(holds));
        }
    }

    /**
     * Tells the observer that a released key was handed straight to a waiter of this instance.
     *
     * @param key the key
     */
    public void handedOver(String key) {
        if (!silent) {
            run(() -> observer.handedOver(key));
        }
    }

    private static Acquisition safe(Acquisition acquisition) {
        return acquisition == Acquisition.NONE
                ? acquisition
                : new Acquisition() {
                    @Override
                    public void acquired() {
                        run(acquisition::acquired);
                    }

                    @Override
                    public void notAcquired() {
                        run(acquisition::notAcquired);
                    }

                    @Override
                    public void failed(Throwable error) {
                        run(() -> acquisition.failed(error));
                    }
                };
    }

    private static Holding safe(Holding holding) {
        return holding == Holding.NONE
                ? holding
                : new Holding() {
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

    private static <T> T call(Supplier<@Nullable T> call, T fallback) {
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
