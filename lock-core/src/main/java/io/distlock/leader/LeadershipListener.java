package io.distlock.leader;

/**
 * Told when an instance gains and loses leadership, on the election's own thread, one call at a time and in order: a
 * grant is always followed by its revocation before the next grant.
 *
 * <p>{@link LeaderElection#isLeader()} turns false the moment a loss is known, before {@link #revoked} is called, so
 * leader-only work that checks it stops at once. A listener that throws is logged and does not stop the election.
 */
public interface LeadershipListener {

    /**
     * This instance is now the leader of its group, until {@link #revoked} is called for this term.
     *
     * @param term the new term, with its fencing token
     */
    void granted(Leadership term);

    /**
     * This instance is no longer the leader: stop leader-only work. After {@link Revocation#LOST}, another instance may
     * already lead; after {@link Revocation#CLOSED}, the lock is released once this method returns.
     *
     * @param term the term that ended
     * @param reason why it ended
     */
    void revoked(Leadership term, Revocation reason);
}
