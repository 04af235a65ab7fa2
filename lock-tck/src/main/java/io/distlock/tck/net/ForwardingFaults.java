package io.distlock.tck.net;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;

/** The faults a {@link TcpProxy} currently injects; every connection consults it before forwarding a chunk. */
final class ForwardingFaults {

    private boolean paused;
    private byte[] stallMarker;
    private final Set<Object> stalled = new HashSet<>();
    private volatile long latencyNanos;

    synchronized void pause() {
        paused = true;
    }

    synchronized void resume() {
        paused = false;
        stallMarker = null;
        stalled.clear();
        notifyAll();
    }

    synchronized void stallCarrying(byte[] marker) {
        if (marker.length == 0) {
            throw new IllegalArgumentException("The stall marker must not be empty");
        }
        stallMarker = marker.clone();
    }

    /** Stalls {@code connection} from now on if this chunk, sent by the client, carries the stall marker. */
    synchronized void inspect(Object connection, byte[] chunk, int length) {
        if (stallMarker != null && indexOf(chunk, length, stallMarker) >= 0) {
            stalled.add(connection);
        }
    }

    /** Drops a closed connection and wakes its waiting forwarders, so that they notice and exit. */
    synchronized void forget(Object connection) {
        stalled.remove(connection);
        notifyAll();
    }

    void latency(Duration oneWay) {
        if (oneWay.isNegative()) {
            throw new IllegalArgumentException("Latency cannot be negative: " + oneWay);
        }
        latencyNanos = oneWay.toNanos();
    }

    /**
     * Holds a chunk back for the configured latency and then while the proxy is paused or the connection stalled.
     * Latency comes first so that a pause also holds back chunks that were already in flight.
     *
     * @param connection the connection that forwards the chunk
     * @param abandoned whether the connection was closed meanwhile, which ends the wait early
     */
    void awaitForwarding(Object connection, BooleanSupplier abandoned) throws InterruptedIOException {
        try {
            delay(latencyNanos);
            synchronized (this) {
                while ((paused || stalled.contains(connection)) && !abandoned.getAsBoolean()) {
                    wait();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while holding back forwarded bytes");
        }
    }

    private static int indexOf(byte[] chunk, int length, byte[] marker) {
        outer:
        for (int from = 0; from <= length - marker.length; from++) {
            for (int i = 0; i < marker.length; i++) {
                if (chunk[from + i] != marker[i]) {
                    continue outer;
                }
            }
            return from;
        }
        return -1;
    }

    /** Sleeps at least {@code nanos}, because tests assert a lower bound on the added latency. */
    private static void delay(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
