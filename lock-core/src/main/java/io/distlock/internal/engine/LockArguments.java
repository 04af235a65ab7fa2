package io.distlock.internal.engine;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.Semaphores;
import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The argument checks that every {@link Lock} implementation makes, so that a bad key, lease or wait gets the same
 * message on every backend. For lock implementations; applications call {@link Lock}'s methods.
 */
public final class LockArguments {

    private LockArguments() {}

    /**
     * Checks a key: not null, not blank, and at most {@link Lock#MAX_KEY_LENGTH} characters.
     *
     * @param key the key
     * @throws IllegalArgumentException naming what is wrong and what is allowed
     */
    public static void validateKey(@Nullable String key) {
        if (key == null) {
            throw new IllegalArgumentException("key must not be null");
        }
        if (key.isBlank()) {
            throw new IllegalArgumentException("key must not be blank, but was \"" + PrintableText.of(key) + "\"");
        }
        if (key.length() > Lock.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key must be at most " + Lock.MAX_KEY_LENGTH + " characters, but had "
                    + key.length() + " (starting \"" + PrintableText.of(key.substring(0, 40)) + "...\")");
        }
    }

    /**
     * Checks a semaphore's count: from 1 to {@link Semaphores#MAX_PERMITS}.
     *
     * @param permits how many owners may hold one key at once
     * @throws IllegalArgumentException naming the count and the range allowed
     */
    public static void validatePermits(int permits) {
        if (permits < 1 || permits > Semaphores.MAX_PERMITS) {
            throw new IllegalArgumentException("permits must be from 1 to " + Semaphores.MAX_PERMITS
                    + " owners of a key at once, but was " + permits);
        }
    }

    /**
     * Checks a lease: not null.
     *
     * @param lease the lease
     * @throws IllegalArgumentException naming what to pass instead
     */
    public static void validateLease(@Nullable Lease lease) {
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null; use Lease.fixed(...) or Lease.renewed()");
        }
    }

    /**
     * Checks a wait and turns it into nanoseconds, capped below {@link Long#MAX_VALUE}.
     *
     * @param wait how long to wait: zero tries once
     * @return the wait in nanoseconds
     * @throws IllegalArgumentException naming what is allowed if the wait is null or negative
     */
    public static long waitNanos(@Nullable Duration wait) {
        if (wait == null || wait.isNegative()) {
            throw new IllegalArgumentException("wait must be zero (try once) or positive, but was " + wait
                    + "; use acquire(...) to wait without limit");
        }
        try {
            return Math.min(wait.toNanos(), Long.MAX_VALUE - 1);
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE - 1;
        }
    }
}
