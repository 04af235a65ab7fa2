package io.distlock.redis;

import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers one lock instance's listener on the shared {@link ReleaseSubscription}, in the background and once, and
 * retries after a failure. Waiters never wait for it: until it is active they rely on the holder's lease, and once it
 * is active they are all woken to check again.
 */
final class ChannelRegistration {

    private static final Logger log = LoggerFactory.getLogger(ChannelRegistration.class);

    /** After a failed subscription, waiters rely on lease expiry alone for this long before trying again. */
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long closing waits for a subscription in progress. */
    private static final long SHUTDOWN_WAIT_MILLIS = 2000;

    private final ReleaseSubscription subscription;
    private final String channel;
    private final ReleaseSubscription.Listener listener;
    private final Object lock = new Object();

    private volatile boolean registered;
    private volatile long nextAttemptNanos;
    private boolean closed;
    private @Nullable Thread registering;

    ChannelRegistration(ReleaseSubscription subscription, String channel, ReleaseSubscription.Listener listener) {
        this.subscription = subscription;
        this.channel = channel;
        this.listener = listener;
        this.nextAttemptNanos = System.nanoTime();
    }

    /** Starts registering in the background unless that is done, under way, or failed less than a second ago. */
    void ensureRegistered() {
        if (registered || System.nanoTime() - nextAttemptNanos < 0) {
            return;
        }
        synchronized (lock) {
            if (registered || registering != null || closed || System.nanoTime() - nextAttemptNanos < 0) {
                return;
            }
            registering = new Thread(this::register, "distlock-subscriber");
            registering.setDaemon(true);
            registering.start();
        }
    }

    /** Lets a registration in progress finish, briefly, so it does not connect while the client shuts down. */
    void close() {
        Thread running;
        synchronized (lock) {
            closed = true;
            running = registering;
        }
        if (running != null) {
            try {
                running.join(SHUTDOWN_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        subscription.unregister(channel, listener);
    }

    private void register() {
        try {
            subscription.register(channel, listener);
            registered = true;
        } catch (RuntimeException e) {
            nextAttemptNanos = System.nanoTime() + RETRY_NANOS;
            log.warn(
                    "Could not subscribe to distlock release channel '{}'; waiters rely on the holder's lease until "
                            + "it works: {}",
                    channel,
                    e.toString());
        } finally {
            synchronized (lock) {
                registering = null;
            }
        }
    }
}
