package io.distlock.leader;

import org.springframework.context.ApplicationEvent;

/** Published when this instance stopped being the leader of a group; see {@link LeadershipListener#revoked}. */
public final class LeadershipRevokedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient Leadership term;
    private final Revocation reason;

    /**
     * Creates the event.
     *
     * @param source the election
     * @param term the term that ended
     * @param reason why it ended
     */
    public LeadershipRevokedEvent(Object source, Leadership term, Revocation reason) {
        super(source);
        this.term = term;
        this.reason = reason;
    }

    /**
     * The term that ended.
     *
     * @return the group and the term's fencing token
     */
    public Leadership term() {
        return term;
    }

    /**
     * Why it ended.
     *
     * @return the reason
     */
    public Revocation reason() {
        return reason;
    }
}
