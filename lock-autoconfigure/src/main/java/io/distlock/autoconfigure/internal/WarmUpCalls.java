package io.distlock.autoconfigure.internal;

import io.distlock.DistributedLock;

/**
 * The locked method of distlock's own that the start-up preparation calls, proxied like the application's, so that
 * the annotation's whole way to the store (the interceptor, the key expression, the lock, the release) has run before
 * the first application call takes it. It does nothing while it holds the key.
 */
public class WarmUpCalls {

    /** The key every warm-up call takes; one fixed key, so that warm-ups leave nothing behind per start. */
    public static final String KEY = "distlock-warm-up";

    /** The part of {@link #KEY} that the key expression adds to its literal start, as most keys are written. */
    public static final String NAME = "warm-up";

    /**
     * Takes {@code distlock-<name>} for an instant; when another instance holds it for longer than a second, skips
     * quietly.
     *
     * @param name always {@link #NAME}
     */
    @DistributedLock(key = "'distlock-' + #name", leaseSeconds = 30, waitSeconds = 1, skipWhenBusy = true)
    public void call(String name) {
        // Nothing to do: what is warmed up is the way to the store and back.
    }
}
