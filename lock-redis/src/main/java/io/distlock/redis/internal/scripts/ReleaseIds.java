package io.distlock.redis.internal.scripts;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The ids under which a release made on several Redlock nodes is announced: every node announces one release under
 * the same id, so other instances wake their waiters once per release; the id also tells a release that ended a split
 * vote, whose waiters try again only after a random delay.
 */
public final class ReleaseIds {

    /**
     * The sender of an operator's release ({@link OperatorScripts#OPERATOR_RELEASE}), in the place of an instance id: as
     * long as one ({@link OwnerTokens#newInstanceId()}), and never one, since ids are URL-safe Base64, without {@code
     * ~}. Its release id is the fencing token of the hold it ended.
     */
    public static final String OPERATOR = "~operator~~~";

    private static final int SPLIT_VOTE_RETRY_MAX_MILLIS = 20;
    private static final String SPLIT_RELEASE = "s";

    private ReleaseIds() {}

    /** A new id for one release made on several nodes. Never contains <code>{</code> or {@code |}. */
    public static String newReleaseId() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    /**
     * A new id for the release of an attempt that did not win a majority. Other instances wake their waiters for it
     * only after a random delay ({@link #retryAfterSplitMillis()}), as the Redlock algorithm asks after a split vote:
     * woken at once, every contender of a split would try again at the same moment and split again.
     */
    public static String newSplitReleaseId() {
        return SPLIT_RELEASE + newReleaseId();
    }

    /** Whether a release id is that of an attempt that did not win a majority. */
    public static boolean isSplitRelease(String releaseId) {
        return releaseId.startsWith(SPLIT_RELEASE);
    }

    /** A random delay of 1 to {@value #SPLIT_VOTE_RETRY_MAX_MILLIS} ms before trying again after a split vote. */
    public static long retryAfterSplitMillis() {
        return ThreadLocalRandom.current().nextLong(1, SPLIT_VOTE_RETRY_MAX_MILLIS + 1);
    }
}
