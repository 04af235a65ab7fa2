package io.distlock;

/**
 * A lock was found lost when its work ended, and a transaction inside that work had already committed. distlock checks
 * its locks just before each commit and rolls the transaction back if one was lost then (with a plain {@link
 * LockLostException}); this exception means the loss came later, during or after the commit, or was only detected
 * then. The committed changes are in the database: do not simply retry the work, which would apply them twice. Check
 * what was committed, and rely on fencing tokens where a stale holder must not write.
 */
public class LockLostAfterCommitException extends LockLostException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception from the loss found when the work ended.
     *
     * @param lost the loss, whose key, reason and timing this exception repeats
     */
    public LockLostAfterCommitException(LockLostException lost) {
        super(
                lost.key(),
                lost.reason(),
                lost.lostAfter(),
                lost.getMessage() + "; a transaction inside the locked work had already committed, so do not retry "
                        + "the work blindly",
                lost);
    }
}
