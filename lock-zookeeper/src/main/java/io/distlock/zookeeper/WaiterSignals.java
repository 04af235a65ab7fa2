package io.distlock.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;

/**
 * When a waiting acquisition looks again: at a change it watches (a node it waits for leaving or changing, or the
 * connection coming back), which ends the wait of the current round, and at a time it set, such as a lease's end, even
 * without a change. One acquisition's; its caller's thread uses it, and watches and the connection wake it.
 */
final class WaiterSignals {

    private final ConnectionWatch connection;
    private final Runnable wake = this::wake;
    private final Watcher watcher = event -> wake();
    private volatile CountDownLatch change = new CountDownLatch(1);
    private boolean listening;
    private long checkAgainNanos;
    private boolean checkAgainDue;

    WaiterSignals(ConnectionWatch connection) {
        this.connection = connection;
    }

    /** Starts a try: from the first one on, the connection's return wakes the waiter; no time to look again is set. */
    void startTry() {
        if (!listening) {
            listening = true;
            connection.addWaiter(wake);
        }
        checkAgainDue = false;
    }

    /** Starts a round of a try, before what it reads: changes from now on end the round's wait. */
    void startRound() {
        change = new CountDownLatch(1);
    }

    /** The watcher to set on what the round waits for. */
    Watcher watcher() {
        return watcher;
    }

    /** Looks again at this {@link System#nanoTime()} even without a change; the last time set counts. */
    void checkAgainAt(long nanos) {
        checkAgainNanos = nanos;
        checkAgainDue = true;
    }

    /**
     * Waits for a change since the round started, the time set to look again, or the deadline, whichever comes first.
     *
     * @throws InterruptedException if the thread is interrupted
     */
    void await(long deadlineNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long until = checkAgainDue && checkAgainNanos - deadlineNanos < 0 ? checkAgainNanos : deadlineNanos;
        long wait = until - System.nanoTime();
        if (wait > 0) {
            change.await(wait, TimeUnit.NANOSECONDS);
        }
    }

    /** Stops listening to the connection. */
    void close() {
        connection.removeWaiter(wake);
    }

    private void wake() {
        change.countDown();
    }
}
