package io.distlock.autoconfigure.leader;

import io.distlock.leader.LeaderElection;
import io.distlock.leader.Leadership;
import io.distlock.leader.LeadershipGrantedEvent;
import io.distlock.leader.LeadershipListener;
import io.distlock.leader.LeadershipRevokedEvent;
import io.distlock.leader.Revocation;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Tells the application of its election's grants and revocations: the {@link LeadershipListener} beans, in their
 * order, then the application events, each on the election's thread, so a synchronous {@code @EventListener} is done
 * before the election goes on (and, at a close, before the lock is released). The listener beans are looked up at each
 * call, so that one may depend on the election.
 */
final class LeadershipEvents implements LeadershipListener {

    private final ApplicationEventPublisher publisher;
    private final Supplier<List<LeadershipListener>> listeners;
    private final Supplier<LeaderElection> election;

    LeadershipEvents(
            ApplicationEventPublisher publisher,
            Supplier<List<LeadershipListener>> listeners,
            Supplier<LeaderElection> election) {
        this.publisher = publisher;
        this.listeners = listeners;
        this.election = election;
    }

    @Override
    public void granted(Leadership term) {
        listeners.get().forEach(listener -> listener.granted(term));
        publisher.publishEvent(new LeadershipGrantedEvent(election.get(), term));
    }

    @Override
    public void revoked(Leadership term, Revocation reason) {
        listeners.get().forEach(listener -> listener.revoked(term, reason));
        publisher.publishEvent(new LeadershipRevokedEvent(election.get(), term, reason));
    }
}
