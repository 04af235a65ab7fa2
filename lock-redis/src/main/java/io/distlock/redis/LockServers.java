package io.distlock.redis;

import io.distlock.redis.internal.engine.EvictionPolicyCheck;
import io.distlock.redis.internal.engine.LocalHandovers;
import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.fair.FairCommands;
import io.distlock.redis.internal.path.PathCommands;
import io.distlock.redis.internal.pubsub.ReleaseConnection;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.waiting.WaitingRoom;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link RedisLock} runs on: one Redis (standalone, Sentinel-managed or a cluster), or the independent nodes of
 * a {@link Redlock}.
 *
 * @param name how the lock names itself in messages
 * @param commands the lock operations on these servers
 * @param waitingRoom where this lock's threads wait; its commands may tell it of releases they made on their own
 * @param clustered whether keys are spread over cluster slots, so that renewals are batched per slot
 * @param channels where releases are announced
 * @param subscriptions where releases of other instances are announced, one per server
 * @param ownsSubscriptions whether the lock closes the subscriptions when it closes
 * @param evictionChecks the eviction policy check of every server, each run once in the background
 * @param fair the fair lock's commands, or null where there is no fair lock (a Redlock)
 * @param paths the path lock's commands, or null where there is no path lock (a Redlock)
 * @param handovers the runs of local handovers, or null where every handover goes through Redis
 */
record LockServers(
        String name,
        LockCommands commands,
        WaitingRoom waitingRoom,
        boolean clustered,
        ReleaseChannels channels,
        List<ReleaseConnection> subscriptions,
        boolean ownsSubscriptions,
        List<EvictionPolicyCheck> evictionChecks,
        @Nullable FairCommands fair,
        @Nullable PathCommands paths,
        @Nullable LocalHandovers handovers) {}
