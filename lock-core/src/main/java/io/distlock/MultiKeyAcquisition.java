package io.distlock;

import io.distlock.internal.text.PrintableText;
import io.distlock.spi.KeyOrder;
import io.distlock.spi.KeysAtOnce;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes several keys all or none, through any {@link Lock}. A lock that can take them in one atomic step ({@link
 * KeysAtOnce}) is asked first. Otherwise, and when that step found a key held and the caller waits, the keys are taken
 * one at a time, in one global order (the keys' natural order, or the lock's own {@link KeyOrder}), releasing what was
 * taken when a key cannot be had.
 * Since every caller takes overlapping keys in the same order, and the one step never holds a key while waiting, no
 * two callers can each hold a key the other waits for, so waiting without limit cannot deadlock.
 */
final class MultiKeyAcquisition {

    private static final Logger log = LoggerFactory.getLogger(MultiKeyAcquisition.class);

    private MultiKeyAcquisition() {}

    /**
     * The keys, each once, in the order every caller of {@code lock} takes them.
     *
     * @throws IllegalArgumentException naming the problem if the collection is null, empty or larger than {@link
     *     Lock#MAX_KEYS_AT_ONCE}, or a key is invalid; never quoting the keys, which may come from a request
     */
    static List<String> order(Lock lock, @Nullable Collection<String> keys) {
        if (keys != null && keys.size() > Lock.MAX_KEYS_AT_ONCE) {
            // Before any key is read: a collection built from a request must not cost a store call per element.
            throw new IllegalArgumentException("keys must name at most " + Lock.MAX_KEYS_AT_ONCE
                    + " keys at once, but named " + keys.size() + "; lock one key that stands for the whole set");
        }
        return lock instanceof KeyOrder own ? own.order(keys == null ? List.of() : keys) : order(keys);
    }

    /**
     * The keys, each once, in their natural order.
     *
     * @throws IllegalArgumentException naming the problem if the collection is null or empty, or a key is null, blank
     *     or too long
     */
    static List<String> order(@Nullable Collection<String> keys) {
        if (keys == null || keys.isEmpty()) {
            throw new IllegalArgumentException(
                    "keys must name at least one key, but " + (keys == null ? "was null" : "was empty"));
        }
        TreeSet<String> ordered = new TreeSet<>();
        int position = 0;
        for (String key : keys) {
            position++;
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("keys must not contain a null or blank key, but key " + position
                        + " of " + keys.size() + " was " + (key == null ? "null" : "blank"));
            }
            if (key.length() > Lock.MAX_KEY_LENGTH) {
                throw new IllegalArgumentException("keys must be at most " + Lock.MAX_KEY_LENGTH
                        + " characters long, but key " + position + " of " + keys.size() + " has " + key.length());
            }
            ordered.add(key);
        }
        return List.copyOf(ordered);
    }

    /**
     * Tries to take every key within {@code wait} in all.
     *
     * @return the handle of every key, or the key that stayed held by someone else; nothing is held then
     */
    static Outcome tryAcquire(Lock lock, Collection<String> keys, Lease lease, Duration wait)
            throws InterruptedException {
        List<String> ordered = order(lock, keys);
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null");
        }
        if (wait == null || wait.isNegative()) {
            throw new IllegalArgumentException("wait must be zero (try once) or positive, but was " + wait);
        }
        long startNanos = System.nanoTime();
        KeysAtOnce.Taken atOnce = tryAtOnce(lock, ordered, lease);
        if (atOnce != null && atOnce.handles() != null) {
            return new Outcome(new OrderedHandles(ordered, atOnce.handles()), null);
        }
        if (atOnce != null && wait.isZero()) {
            return new Outcome(null, atOnce.busyKey());
        }
        List<LockHandle> held = new ArrayList<>(ordered.size());
        try {
            for (String key : ordered) {
                Duration left = wait.minusNanos(System.nanoTime() - startNanos);
                Optional<LockHandle> handle = lock.tryAcquire(key, lease, left.isNegative() ? Duration.ZERO : left);
                if (handle.isEmpty()) {
                    releaseTaken(held, null);
                    return new Outcome(null, key);
                }
                held.add(handle.get());
            }
        } catch (RuntimeException | InterruptedException | Error failure) {
            releaseTaken(held, failure);
            throw failure;
        }
        return new Outcome(new OrderedHandles(ordered, held), null);
    }

    /** Takes every key, waiting as long as it takes for each. */
    static MultiLockHandle acquire(Lock lock, Collection<String> keys, Lease lease) throws InterruptedException {
        List<String> ordered = order(lock, keys);
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null");
        }
        KeysAtOnce.Taken atOnce = tryAtOnce(lock, ordered, lease);
        if (atOnce != null && atOnce.handles() != null) {
            return new OrderedHandles(ordered, atOnce.handles());
        }
        List<LockHandle> held = new ArrayList<>(ordered.size());
        try {
            for (String key : ordered) {
                held.add(lock.acquire(key, lease));
            }
        } catch (RuntimeException | InterruptedException | Error failure) {
            releaseTaken(held, failure);
            throw failure;
        }
        return new OrderedHandles(ordered, held);
    }

    /**
     * One attempt on every key in one step of the store, where the lock offers it and there is more than one key.
     *
     * @return the handles or the first key held; null if the keys are to be taken one by one
     */
    private static KeysAtOnce.@Nullable Taken tryAtOnce(Lock lock, List<String> ordered, Lease lease) {
        if (ordered.size() < 2 || !(lock instanceof KeysAtOnce atOnce)) {
            return null;
        }
        return atOnce.tryAcquireAtOnce(ordered, lease);
    }

    /**
     * Gives back the keys taken so far, last first. A failure to release is attached to the failure that ended the
     * acquisition, or logged: that key then expires with its lease.
     */
    private static void releaseTaken(List<LockHandle> held, @Nullable Throwable cause) {
        for (int i = held.size() - 1; i >= 0; i--) {
            LockHandle handle = held.get(i);
            try {
                handle.close();
            } catch (RuntimeException releaseFailure) {
                if (cause != null) {
                    cause.addSuppressed(releaseFailure);
                } else {
                    log.warn(
                            "Lock '{}', taken as part of a set of keys that could not all be had, could not be"
                                    + " released; it expires with its lease: {}",
                            PrintableText.of(handle.key()),
                            releaseFailure.getMessage());
                }
            }
        }
    }

    /**
     * What an attempt on several keys came to.
     *
     * @param held the handle of every key, or null if not acquired
     * @param busy the first key that stayed held by someone else, if not acquired
     */
    record Outcome(@Nullable MultiLockHandle held, @Nullable String busy) {}
}
