package io.distlock.redis.internal.engine;

import io.distlock.LockLostException.Reason;
import io.distlock.redis.internal.pubsub.ReleaseListener;
import io.distlock.redis.internal.scripts.ReleaseIds;

/**
 * Hears the releases an operator made ({@link io.distlock.redis.internal.scripts.OperatorScripts#OPERATOR_RELEASE}) and
 * reports this instance's hold they ended lost, with {@link Reason#RELEASED_BY_OPERATOR}; every announcement then goes
 * on to the waiters' listener, which wakes the waiters of an operator's release like any other.
 */
public final class OperatorReleases implements ReleaseListener {

    private final LiveHolds live;
    private final ReleaseListener waiters;

    /**
     * @param live this instance's holds
     * @param waiters what wakes this instance's waiters on a release
     */
    public OperatorReleases(LiveHolds live, ReleaseListener waiters) {
        this.live = live;
        this.waiters = waiters;
    }

    @Override
    public void released(String message) {
        if (message.startsWith(ReleaseIds.OPERATOR)) {
            String rest = message.substring(ReleaseIds.OPERATOR.length());
            int end = rest.indexOf('|');
            if (end > 0) {
                lost(rest.substring(end + 1), rest.substring(0, end));
            }
        }
        waiters.released(message);
    }

    private void lost(String lockKey, String fencingToken) {
        for (Hold hold : live.snapshot()) {
            if (hold.lockKey().equals(lockKey)
                    && Long.toString(hold.fencingToken()).equals(fencingToken)) {
                hold.markLost(Reason.RELEASED_BY_OPERATOR);
            }
        }
    }

    @Override
    public void subscribed() {
        waiters.subscribed();
    }
}
