package io.distlock.monitor;

import io.distlock.LockLostException;
import java.util.List;
import java.util.Objects;

/**
 * Hears what a lock does, so that metrics and tracing can follow it. Every method has an empty default, so an observer
 * implements only what it needs; {@link #NONE} hears nothing.
 *
 * <p>A lock calls its observer on its own threads, including the threads that acquire and the renewal thread, so an
 * observer must be fast and thread-safe and must not block. What an observer throws is caught and logged; it never
 * changes what the lock does.
 *
 * <p><b>Names.</b> {@code key} is the key the application asked for; for a {@linkplain LockKind#PATH path lock} it is
 * the tree's name, since the paths of a tree are many. Keys can be many and chosen by users (an order number, a SKU), so an observer that tags by them must map
 * them to a few groups first.
 */
public interface LockObserver {

    /** An observer that hears nothing. */
    LockObserver NONE = new LockObserver() {};

    /**
     * One observer that tells each of these, in order.
     *
     * @param observers the observers; none gives {@link #NONE}, one gives that one
     * @return the combined observer
     * @throws IllegalArgumentException if the list or one of its observers is null
     */
    static LockObserver of(List<? extends LockObserver> observers) {
        if (observers == null || observers.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("observers must not be null or contain null: " + observers);
        }
        return switch (observers.size()) {
            case 0 -> NONE;
            case 1 -> observers.get(0);
            default -> new CompositeLockObserver(List.copyOf(observers));
        };
    }

    /**
     * An acquisition begins, on the thread that asked for the lock, after the arguments were checked. Several keys
     * taken one by one ({@link io.distlock.Lock#acquireAll}) are heard as one acquisition per key; keys that a store
     * takes together in one step start their holds without an acquisition.
     *
     * @param key the key asked for (see the type's notes on names)
     * @param kind the kind of lock asked for
     * @return what hears how it ends, on the same thread; never null
     */
    default Acquisition acquisitionStarted(String key, LockKind kind) {
        return Acquisition.NONE;
    }

    /**
     * An acquisition that no thread waits for ({@link io.distlock.Lock#tryAcquireAsync}) begins, on the thread that
     * asked for the lock. It ends on whichever thread completes it, so by default it is not heard: an observer that
     * keeps state per thread, such as an open tracing scope, must not end that state on another thread. Observers that
     * do not (timers, counters) may hear it as they hear {@link #acquisitionStarted}.
     *
     * @param key the key asked for (see the type's notes on names)
     * @param kind the kind of lock asked for
     * @return what hears how it ends, on any thread; never null
     */
    default Acquisition asyncAcquisitionStarted(String key, LockKind kind) {
        return Acquisition.NONE;
    }

    /**
     * A new hold begins: the server granted the key to a new owner, or a releasing holder of this instance handed it
     * over. Called on the acquiring thread right after {@link Acquisition#acquired()}; a nested acquisition that joins
     * a hold of its scope starts none.
     *
     * @param key the key held (see the type's notes on names)
     * @param kind the kind of lock held
     * @param fencingToken the hold's fencing token
     * @return what hears how the hold ends, on whichever thread ends it; never null
     */
    default Holding holdStarted(String key, LockKind kind, long fencingToken) {
        return Holding.NONE;
    }

    /**
     * A renewal of auto-renewed leases was confirmed, on the renewal thread.
     *
     * @param holds how many holds the server confirmed
     */
    default void renewed(int holds) {}

    /**
     * A renewal of auto-renewed leases failed, on the renewal thread: the server could not be reached in time, or it
     * found holds no longer owned (these are also {@linkplain Holding#lost reported lost}).
     *
     * @param holds how many holds the renewal failed for
     */
    default void renewalFailed(int holds) {}

    /**
     * A releasing holder of this instance handed the key straight to a waiting thread of this instance, in one round
     * trip, instead of releasing it on the server.
     *
     * @param key the key handed over
     */
    default void handedOver(String key) {}

    /** How one acquisition ends; exactly one method is called, once. */
    interface Acquisition {

        /** Hears nothing. */
        Acquisition NONE = new Acquisition() {};

        /** The caller got the lock: a new hold, or a nested acquisition in a scope that holds the key. */
        default void acquired() {}

        /** The caller's wait ended without the lock (for a single attempt: the key was held). */
        default void notAcquired() {}

        /**
         * The acquisition threw: the server failed or did not answer in time, the lock was closing, or the waiting
         * thread was interrupted.
         *
         * @param error what the acquisition threw
         */
        default void failed(Throwable error) {}
    }

    /** How one hold ends; exactly one method is called, once. */
    interface Holding {

        /** Hears nothing. */
        Holding NONE = new Holding() {};

        /** The last handle released the lock (or the release could not be confirmed, and the key expires). */
        default void released() {}

        /**
         * The hold was found lost before its release.
         *
         * @param reason why
         */
        default void lost(LockLostException.Reason reason) {}

        /**
         * The hold's last handle was garbage-collected without being released; the key expires with its lease.
         */
        default void dropped() {}
    }
}
