package io.distlock.redis.internal.path;

import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.Holds;
import io.distlock.redis.internal.engine.LeaseRenewer;
import io.distlock.redis.internal.engine.LiveHolds;
import io.distlock.redis.internal.engine.ObserverCalls;
import io.distlock.redis.internal.engine.Releaser;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.waiting.ReleaseSignals;
import io.distlock.redis.internal.waiting.WaitingRoom;
import io.distlock.spi.HoldSettings;
import org.jspecify.annotations.Nullable;

/**
 * What the {@linkplain io.distlock.redis.PathLock path locks} of one {@link io.distlock.redis.RedisLock} share: their
 * commands, and the holds, renewer and releaser that serve path holds over those commands. The renewer's thread starts
 * with the first path acquisition, so an application that never locks a path pays nothing for them.
 */
public final class PathLocks {

    private final PathCommands commands;
    private final WaitingRoom waitingRoom;
    private final LiveHolds live;
    private final boolean clustered;
    private final HoldSettings settings;
    private final ObserverCalls observer;

    /** Guarded by this. */
    private @Nullable LeaseRenewer renewer;
    /** Written once, under this. */
    private volatile @Nullable Holds holds;

    /**
     * @param live the owning lock's live holds, so that its shutdown waits for path holds too
     * @param clustered whether keys are spread over cluster slots, so that renewals are batched per slot
     */
    public PathLocks(
            PathCommands commands,
            WaitingRoom waitingRoom,
            LiveHolds live,
            boolean clustered,
            HoldSettings settings,
            ObserverCalls observer) {
        this.settings = settings;
        this.observer = observer;
        this.commands = commands;
        this.waitingRoom = waitingRoom;
        this.live = live;
        this.clustered = clustered;
    }

    public PathCommands commands() {
        return commands;
    }

    /** Where path waiters hear of releases in their tree, under its {@linkplain TreePath#releaseKey() release key}. */
    public ReleaseSignals releases() {
        return waitingRoom.readers();
    }

    public Holds holds() {
        Holds started = holds;
        if (started != null) {
            return started;
        }
        synchronized (this) {
            if (holds == null) {
                renewer = new LeaseRenewer(commands, clustered, settings, observer);
                Releaser releaser =
                        new Releaser(commands, waitingRoom, live, renewer, OwnerTokens::newToken, null, observer, null);
                holds = new Holds(commands, live, renewer, releaser, LockKind.PATH);
            }
            return holds;
        }
    }

    /** Whether the path holds' renewer runs, or was never needed. */
    public synchronized boolean isRenewerRunning() {
        return renewer == null || renewer.isRunning();
    }

    /** Stops renewing; called once the owning lock's grace period is over. */
    public synchronized void close() {
        if (renewer != null) {
            renewer.close();
        }
    }
}
