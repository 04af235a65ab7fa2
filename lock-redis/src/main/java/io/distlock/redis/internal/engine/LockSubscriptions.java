package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.pubsub.ReleaseConnection;
import io.distlock.redis.internal.pubsub.ReleaseListener;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where one lock hears other instances: releases on its release channel and, with a fair lock, handovers to its
 * waiters on its own handover channel, through one {@link ReleaseConnection} per server. Where a subscription shards,
 * also on the sharded channels of the slot of each key its threads wait for.
 */
public final class LockSubscriptions {

    private final List<ReleaseConnection> subscriptions;
    private final boolean owned;
    private final ReleaseChannels channels;
    /** The classic release channel, then the fair lock's classic handover channel if there is one. */
    private final List<String> classicChannels;

    private final @Nullable String fairInstanceId;
    private final ReleaseListener listener;

    /**
     * @param owned whether the lock closes the subscriptions when it closes (false when the builder was given a shared
     *     one)
     * @param channels the lock's release channels
     * @param fairInstanceId the lock instance's id if it has a fair lock, whose handovers it hears on its own channel
     * @param listener where the announcements go
     */
    public LockSubscriptions(
            List<ReleaseConnection> subscriptions,
            boolean owned,
            ReleaseChannels channels,
            @Nullable String fairInstanceId,
            ReleaseListener listener) {
        this.subscriptions = subscriptions;
        this.owned = owned;
        this.channels = channels;
        this.classicChannels = fairInstanceId == null
                ? List.of(channels.classic())
                : List.of(channels.classic(), ReleaseChannels.handoverChannel(channels.classic(), fairInstanceId));
        this.fairInstanceId = fairInstanceId;
        this.listener = listener;
    }

    /** Makes sure, in the background, that every classic channel is heard. Never blocks. */
    void ensureSubscribed() {
        for (ReleaseConnection subscription : subscriptions) {
            for (String channel : classicChannels) {
                subscription.ensureSubscribed(channel, listener);
            }
        }
    }

    /**
     * Waits until every classic channel is heard, as {@link #ensureSubscribed} arranged.
     *
     * @return whether they all were within the time
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    boolean awaitSubscribed(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (ReleaseConnection subscription : subscriptions) {
            for (String channel : classicChannels) {
                if (!subscription.awaitSubscribed(channel, deadline - System.nanoTime())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Makes sure, in the background, that the sharded release channel of the slot of {@code lockKey} (or a path tree's
     * release key) is heard, and with {@code fair} the instance's sharded handover channel of the slot, where a
     * subscription shards. Never blocks.
     */
    void ensureShardSubscribed(String lockKey, boolean fair) {
        for (ReleaseConnection subscription : subscriptions) {
            if (subscription.shards()) {
                String sharded = channels.shardedChannel(lockKey);
                subscription.ensureShardSubscribed(sharded, listener);
                if (fair && fairInstanceId != null) {
                    subscription.ensureShardSubscribed(
                            ReleaseChannels.handoverChannel(sharded, fairInstanceId), listener);
                }
            }
        }
    }

    /** Stops hearing every channel: the lock is closing. */
    public void unsubscribe() {
        for (ReleaseConnection subscription : subscriptions) {
            for (String channel : classicChannels) {
                subscription.unsubscribe(channel, listener);
            }
        }
    }

    /** Closes the subscriptions unless they were shared through the builder. */
    public void closeOwned() {
        if (owned) {
            subscriptions.forEach(ReleaseConnection::close);
        }
    }
}
