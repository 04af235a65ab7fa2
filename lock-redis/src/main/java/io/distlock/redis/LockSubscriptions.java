package io.distlock.redis;

import java.util.List;

/**
 * Where one lock hears other instances: releases on its release channel and, with a fair lock, handovers to its
 * waiters on its own handover channel, through one {@link ReleaseSubscription} per server.
 */
final class LockSubscriptions {

    private final List<ReleaseSubscription> subscriptions;
    private final boolean owned;
    private final List<String> channels;
    private final ReleaseSubscription.Listener listener;

    /**
     * @param owned whether the lock closes the subscriptions when it closes (false when the builder was given a shared
     *     one)
     * @param channels the release channel, then the fair lock's handover channel if there is one
     * @param listener where the announcements go
     */
    LockSubscriptions(
            List<ReleaseSubscription> subscriptions,
            boolean owned,
            List<String> channels,
            ReleaseSubscription.Listener listener) {
        this.subscriptions = subscriptions;
        this.owned = owned;
        this.channels = channels;
        this.listener = listener;
    }

    /** Makes sure, in the background, that every channel is heard. Never blocks. */
    void ensureSubscribed() {
        subscriptions.forEach(
                subscription -> channels.forEach(channel -> subscription.ensureSubscribed(channel, listener)));
    }

    /** Stops hearing every channel: the lock is closing. */
    void unsubscribe() {
        subscriptions.forEach(subscription -> channels.forEach(channel -> subscription.unsubscribe(channel, listener)));
    }

    /** Closes the subscriptions unless they were shared through the builder. */
    void closeOwned() {
        if (owned) {
            subscriptions.forEach(ReleaseSubscription::close);
        }
    }
}
