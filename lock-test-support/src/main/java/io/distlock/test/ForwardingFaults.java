package io.distlock.test;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** The faults a {@link TcpProxy} currently injects; every connection consults it before forwarding a chunk. */
final class ForwardingFaults {

    private boolean paused;
    private volatile long latencyNanos;

    synchronized void pause() {
        paused = true;
    }

    synchronized void resume() {
        paused = false;
        notifyAll();
    }

    void latency(Duration oneWay) {
        if (oneWay.isNegative()) {
            throw new IllegalArgumentException("Latency cannot be negative: " + oneWay);
        }
        latencyNanos = oneWay.toNanos();
    }

    /** Wakes waiting forwarders so that those whose connection was closed can notice and exit. */
    synchronized void wakeUp() {
        notifyAll();
    }

    /**
     * Holds a chunk back for the configured latency and then while the proxy is paused. Latency comes first so that a
     * pause also holds back chunks that were already in flight.
     *
     * @param abandoned whether the connection was closed meanwhile, which ends the wait early
     */
    void awaitForwarding(BooleanSupplier abandoned) throws InterruptedIOException {
        try {
            delay(latencyNanos);
            synchronized (this) {
                while (paused && !abandoned.getAsBoolean()) {
                    wait();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while holding back forwarded bytes");
        }
    }

    /** Sleeps at least {@code nanos}, because tests assert a lower bound on the added latency. */
    private static void delay(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
