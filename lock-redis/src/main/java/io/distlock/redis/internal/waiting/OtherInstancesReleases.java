package io.distlock.redis.internal.waiting;

import io.distlock.redis.internal.pubsub.ReleaseListener;
import io.distlock.redis.internal.scripts.ReleaseIds;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Hands the releases that other lock instances announce to this instance's waiting room. Releases of this instance
 * told its waiters at once, so only other instances' releases are news.
 *
 * <p>An announcement is the releasing instance's id, then, for a release made on several nodes (a {@link
 * io.distlock.redis.Redlock}), a release id and {@code |}, then the lock key (see {@link
 * io.distlock.redis.internal.scripts.LockScripts#RELEASE}). Each node announces such a release, but the waiting room
 * hears of it once: every announcement wakes one waiter, and a waiter woken for nothing makes an attempt on every node.
 * The release of an attempt that did not win a majority wakes a waiter only after a random delay, so that the
 * contenders of a split vote do not all try again at once.
 */
public final class OtherInstancesReleases implements ReleaseListener {

    /** How many recent release ids are remembered; far more than can arrive in the time one release is announced. */
    private static final int REMEMBERED_RELEASES = 1024;

    private final String instanceId;
    private final WaitingRoom waitingRoom;
    private final Map<String, Boolean> recentReleases = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_RELEASES;
        }
    };

    public OtherInstancesReleases(String instanceId, WaitingRoom waitingRoom) {
        this.instanceId = instanceId;
        this.waitingRoom = waitingRoom;
    }

    @Override
    public void released(String message) {
        if (message.startsWith(instanceId)) {
            return;
        }
        String rest = message.substring(instanceId.length());
        if (rest.startsWith("{")) {
            waitingRoom.released(rest);
            return;
        }
        int end = rest.indexOf('|');
        if (end < 0 || !firstHeard(message.substring(0, instanceId.length() + end))) {
            return;
        }
        String lockKey = rest.substring(end + 1);
        if (ReleaseIds.isSplitRelease(rest.substring(0, end))) {
            CompletableFuture.delayedExecutor(ReleaseIds.retryAfterSplitMillis(), TimeUnit.MILLISECONDS)
                    .execute(() -> waitingRoom.released(lockKey));
        } else {
            waitingRoom.released(lockKey);
        }
    }

    private boolean firstHeard(String release) {
        synchronized (recentReleases) {
            return recentReleases.put(release, Boolean.TRUE) == null;
        }
    }

    @Override
    public void subscribed() {
        waitingRoom.releasedAll();
    }
}
