package io.distlock.redis;

import io.distlock.LockLostException.Reason;
import io.distlock.redis.internal.engine.EvictionPolicyCheck;
import io.distlock.redis.internal.engine.LeaseRenewer;
import io.distlock.redis.internal.engine.LiveHolds;
import io.distlock.redis.internal.engine.LockSubscriptions;
import io.distlock.redis.internal.fair.FairHandovers;
import io.distlock.redis.internal.path.PathLocks;
import io.distlock.redis.internal.waiting.WaitingRoom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The graceful shutdown of one lock, once it refuses new acquisitions: waiting ones are woken to fail, held locks keep
 * being renewed until they are released or the grace period ends and are then reported lost, and renewals and
 * subscriptions stop.
 */
final class LockShutdown {

    /**
     * How long the shutdown waits for the eviction policy checks: each is one INFO per server, normally milliseconds.
     */
    static final long CHECKS_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final WaitingRoom waitingRoom;
    private final FairHandovers handovers;
    private final LockSubscriptions subscriptions;
    private final LiveHolds live;
    private final LeaseRenewer renewer;
    private final @Nullable PathLocks paths;
    private final List<EvictionPolicyCheck> evictionChecks;
    private final long graceNanos;
    private final Logger log;

    /**
     * @param paths the lock's path locks, or null where there are none
     * @param evictionChecks the eviction policy checks, which may still be under way
     * @param log where the holds still open at the end of the grace period are reported: the lock's own log
     */
    LockShutdown(
            WaitingRoom waitingRoom,
            FairHandovers handovers,
            LockSubscriptions subscriptions,
            LiveHolds live,
            LeaseRenewer renewer,
            @Nullable PathLocks paths,
            List<EvictionPolicyCheck> evictionChecks,
            Duration gracePeriod,
            Logger log) {
        this.evictionChecks = evictionChecks;
        this.waitingRoom = waitingRoom;
        this.handovers = handovers;
        this.subscriptions = subscriptions;
        this.live = live;
        this.renewer = renewer;
        this.paths = paths;
        this.graceNanos = gracePeriod.toNanos();
        this.log = log;
    }

    Duration gracePeriod() {
        return Duration.ofNanos(graceNanos);
    }

    /**
     * Blocks for at most the grace period, plus a few seconds for a subscription in progress and up to {@link
     * #CHECKS_WAIT_NANOS} for eviction policy checks under way.
     */
    void run() {
        waitingRoom.close();
        handovers.wakeAll();
        subscriptions.unsubscribe();
        int abandoned = live.awaitReleasedThenMarkLost(graceNanos, Reason.CLIENT_CLOSED);
        if (abandoned > 0) {
            log.warn(
                    "{} distlock lock(s) were still held when the shutdown grace period of {} ended; they are reported"
                            + " lost and expire with their leases",
                    abandoned,
                    gracePeriod());
        }
        renewer.close();
        if (paths != null) {
            paths.close();
        }
        subscriptions.closeOwned();
        long checksEnd = System.nanoTime() + CHECKS_WAIT_NANOS;
        evictionChecks.forEach(check -> check.awaitEnd(checksEnd - System.nanoTime()));
    }
}
