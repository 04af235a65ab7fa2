package io.distlock.store;

import io.distlock.LockLostException;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.monitor.LockObserver.Acquisition;
import io.distlock.monitor.LockObserver.Holding;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Tells a {@link LockObserver} what a {@link StoreLock} does; an observer that fails never stops the lock. */
final class StoreObserver {

    private static final Logger log = LoggerFactory.getLogger(StoreObserver.class);

    private final LockObserver observer;
    private final boolean silent;

    StoreObserver(LockObserver observer) {
        this.observer = observer;
        this.silent = observer == LockObserver.NONE;
    }

    Acquisition acquisitionStarted(String key) {
        return silent
                ? Acquisition.NONE
                : safe(call(() -> observer.acquisitionStarted(key, LockKind.EXCLUSIVE), Acquisition.NONE));
    }

    Holding holdStarted(String key, long fencingToken) {
        return silent
                ? Holding.NONE
                : safe(call(() -> observer.holdStarted(key, LockKind.EXCLUSIVE, fencingToken), Holding.NONE));
    }

    void renewed() {
        if (!silent) {
            run(() -> observer.renewed(1));
        }
    }

    void renewalFailed() {
        if (!silent) {
            run(() -> observer.renewalFailed(1));
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
