package io.distlock.monitor;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What {@link InspectableLock#checkBackend()} found.
 *
 * @param reachable whether the server answered a script within the command timeout
 * @param roundTrip how long that script took; null if it did not answer
 * @param error why the server could not be reached; null if it was
 * @param renewerRunning whether the thread that renews leases and watches for lost holds runs
 * @param subscription the state of the subscription that announces other instances' releases
 */
public record BackendState(
        boolean reachable,
        @Nullable Duration roundTrip,
        @Nullable String error,
        boolean renewerRunning,
        Subscription subscription) {

    /**
     * Whether the lock can do its work: the server is reachable and the renewer runs. A subscription that is not (yet)
     * up costs waiters latency, never safety, so it does not count.
     *
     * @return whether the lock is healthy
     */
    public boolean isHealthy() {
        return reachable && renewerRunning;
    }

    /** The state of the release subscription. */
    public enum Subscription {
        /** Subscribed: releases of other instances wake this instance's waiters at once. */
        SUBSCRIBED,
        /** Not subscribed yet: no waiter has needed it, or the first subscription is on its way. */
        NOT_STARTED,
        /** The connection was lost and is being re-established; meanwhile waiters wake when leases end. */
        RECONNECTING,
        /**
         * The backend has no release subscription: its waiters learn of releases by their own means, such as polling
         * a table or watching a node.
         */
        NONE,
        /** Closed with the lock. */
        CLOSED
    }
}
