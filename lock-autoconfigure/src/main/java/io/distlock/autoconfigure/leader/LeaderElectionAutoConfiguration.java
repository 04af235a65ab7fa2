package io.distlock.autoconfigure.leader;

import io.distlock.Lock;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.autoconfigure.internal.DistributedLockStartupException;
import io.distlock.leader.LeaderElection;
import io.distlock.leader.LeadershipListener;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the application's {@link LeaderElection}, when {@code distlock.leader.group} names a group: an
 * election over distlock's {@link Lock} bean, started with the context and closed first at shutdown, whose grants and
 * revocations go to the {@link LeadershipListener} beans and are published as {@code LeadershipGrantedEvent} and
 * {@code LeadershipRevokedEvent}. A group without a {@code Lock} bean fails start-up.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(LeaderElection.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnProperty(prefix = "distlock.leader", name = "group")
@EnableConfigurationProperties(LeaderElectionProperties.class)
public final class LeaderElectionAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LeaderElection distlockLeaderElection(
            ObjectProvider<Lock> locks,
            LeaderElectionProperties properties,
            ApplicationEventPublisher publisher,
            ObjectProvider<LeadershipListener> listeners) {
        String group = properties.getGroup();
        Lock lock = locks.getIfUnique(() -> {
            throw new DistributedLockStartupException(
                    "distlock.leader.group=" + group + " needs one io.distlock.Lock bean to elect a leader with, but"
                            + " the application has " + (locks.stream().count() == 0 ? "none" : "several") + ".",
                    "Configure a lock backend (docs/getting-started.md), or remove the property.");
        });
        AtomicReference<LeaderElection> built = new AtomicReference<>();
        LeaderElection election = LeaderElection.builder(lock, group)
                .lease(properties.termLease())
                .listener(new LeadershipEvents(
                        publisher, () -> listeners.orderedStream().toList(), built::get))
                .build();
        built.set(election);
        return election;
    }

    @Bean
    LeaderElectionLifecycle distlockLeaderElectionLifecycle(LeaderElection election) {
        return new LeaderElectionLifecycle(election);
    }
}
