package io.distlock.leader;

import org.springframework.context.ApplicationEvent;

/** Published when this instance became the leader of a group; see {@link LeadershipListener#granted}. */
public final class LeadershipGrantedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient Leadership term;

    /**
     * Creates the event.
     *
     * @param source the election
     * @param term the new term
     */
    public LeadershipGrantedEvent(Object source, Leadership term) {
        super(source);
        this.term = term;
    }

    /**
     * The term that began.
     *
     * @return the group and the term's fencing token
     */
    public Leadership term() {
        return term;
    }
}
