package io.distlock.redis.internal.engine;

import io.distlock.LockLostException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** The holds of one lock instance that are neither released nor known lost, so that closing can wait for them. */
public final class LiveHolds {

    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();

    void add(Hold hold) {
        holds.add(hold);
    }

    void remove(Hold hold) {
        if (holds.remove(hold) && holds.isEmpty()) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /** The holds neither released nor known lost, in no particular order, for the inspection. */
    public List<Hold> snapshot() {
        List<Hold> snapshot = new ArrayList<>(holds.size());
        for (Hold hold : holds) {
            if (!hold.hasEnded()) {
                snapshot.add(hold);
            }
        }
        return snapshot;
    }

    /** How many holds are neither released nor known lost. */
    public int count() {
        int count = 0;
        for (Hold hold : holds) {
            if (!hold.hasEnded()) {
                count++;
            }
        }
        return count;
    }

    /**
     * Waits until every hold was released or lost, or {@code graceNanos} passed; then marks the remaining ones lost.
     *
     * @return how many holds were still open and are now marked lost
     */
    public int awaitReleasedThenMarkLost(long graceNanos, Reason reason) {
        long deadline = System.nanoTime() + graceNanos;
        boolean interrupted = false;
        synchronized (this) {
            while (!open().isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
        }
        List<Hold> remaining = open();
        remaining.forEach(hold -> hold.markLost(reason));
        holds.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return remaining.size();
    }

    /** The holds still open; lost ones are dropped, since nobody waits for them. */
    private List<Hold> open() {
        List<Hold> open = new ArrayList<>(holds.size());
        for (Hold hold : holds) {
            if (hold.hasEnded()) {
                holds.remove(hold);
            } else {
                open.add(hold);
            }
        }
        return open;
    }
}
