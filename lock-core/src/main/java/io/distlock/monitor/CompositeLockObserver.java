package io.distlock.monitor;

import io.distlock.LockLostException;
import java.util.ArrayList;
import java.util.List;

/** Tells several observers, in order, each through the acquisitions and holds it returned itself. */
final class CompositeLockObserver implements LockObserver {

    private final List<LockObserver> observers;

    CompositeLockObserver(List<LockObserver> observers) {
        this.observers = observers;
    }

    @Override
    public Acquisition acquisitionStarted(String key, LockKind kind) {
        List<Acquisition> each = new ArrayList<>(observers.size());
        observers.forEach(observer -> each.add(observer.acquisitionStarted(key, kind)));
        return all(each);
    }

    @Override
    public Acquisition asyncAcquisitionStarted(String key, LockKind kind) {
        List<Acquisition> each = new ArrayList<>(observers.size());
        observers.forEach(observer -> each.add(observer.asyncAcquisitionStarted(key, kind)));
        return all(each);
    }

    private static Acquisition all(List<Acquisition> each) {
        return new Acquisition() {
            @Override
            public void acquired() {
                each.forEach(Acquisition::acquired);
            }

            @Override
            public void notAcquired() {
                each.forEach(Acquisition::notAcquired);
            }

            @Override
            public void failed(Throwable error) {
                each.forEach(acquisition -> acquisition.failed(error));
            }
        };
    }

    @Override
    public Holding holdStarted(String key, LockKind kind, long fencingToken) {
        List<Holding> each = new ArrayList<>(observers.size());
        observers.forEach(observer -> each.add(observer.holdStarted(key, kind, fencingToken)));
        return new Holding() {
            @Override
            public void released() {
                each.forEach(Holding::released);
            }

            @Override
            public void lost(LockLostException.Reason reason) {
                each.forEach(holding -> holding.lost(reason));
            }

            @Override
            public void dropped() {
                each.forEach(Holding::dropped);
            }
        };
    }

    @Override
    public void renewed(int holds) {
        observers.forEach(observer -> observer.renewed(holds));
    }

    @Override
    public void renewalFailed(int holds) {
        observers.forEach(observer -> observer.renewalFailed(holds));
    }

    @Override
    public void handedOver(String key) {
        observers.forEach(observer -> observer.handedOver(key));
    }
}
