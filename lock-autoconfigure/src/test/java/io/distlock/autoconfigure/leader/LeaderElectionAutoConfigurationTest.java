package io.distlock.autoconfigure.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.leader.LeaderElection;
import io.distlock.leader.Leadership;
import io.distlock.leader.LeadershipGrantedEvent;
import io.distlock.leader.LeadershipListener;
import io.distlock.leader.LeadershipRevokedEvent;
import io.distlock.leader.Revocation;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * {@code distlock.leader.group}: an election started with the context over the lock bean, whose grants and revocations
 * reach listener beans and application events, and which hands over when the context closes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeaderElectionAutoConfigurationTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis()
            .withConfiguration(AutoConfigurations.of(LeaderElectionAutoConfiguration.class));

    private final String group = "group-" + UUID.randomUUID();

    @Test
    void withoutAGroupThereIsNoElection() {
        runner.run(context -> assertThat(context).doesNotHaveBean(LeaderElection.class));
    }

    @Test
    void theOnlyInstanceLeadsAndHearsOfItThroughListenersAndEvents() {
        Recorder recorder = new Recorder();
        runner.withPropertyValues("distlock.leader.group=" + group)
                .withBean(Recorder.class, () -> recorder)
                .withUserConfiguration(EventRecording.class)
                .run(context -> {
                    LeaderElection election = context.getBean(LeaderElection.class);
                    await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
                    assertThat(election.group()).isEqualTo(group);
                    await().atMost(Duration.ofSeconds(5))
                            .until(() ->
                                    context.getBean(EventRecording.class).events.size() == 1);
                    assertThat(recorder.events).containsExactly("granted " + group);
                });
        assertThat(recorder.events).containsExactly("granted " + group, "revoked " + group + " CLOSED");
    }

    @Test
    void whenTheLeadersContextClosesTheNextInstanceLeads() {
        runner.withPropertyValues("distlock.leader.group=" + group).run(first -> {
            LeaderElection leader = first.getBean(LeaderElection.class);
            await().atMost(Duration.ofSeconds(10)).until(leader::isLeader);
            runner.withPropertyValues("distlock.leader.group=" + group).run(second -> {
                LeaderElection next = second.getBean(LeaderElection.class);
                await().during(Duration.ofMillis(300))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> !next.isLeader());

                first.close();

                assertThat(leader.isLeader()).isFalse();
                await().atMost(Duration.ofSeconds(5)).until(next::isLeader);
            });
        });
    }

    @Test
    void aGroupWithoutALockFailsStartupNamingTheProperty() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LeaderElectionAutoConfiguration.class))
                .withPropertyValues("distlock.leader.group=" + group)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("distlock.leader.group=" + group + " needs one io.distlock.Lock bean")
                        .hasMessageContaining("none"));
    }

    @Test
    void aBlankGroupOrALeaseOutOfRangeFailsStartup() {
        runner.withPropertyValues("distlock.leader.group= ")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("distlock.leader.group")
                        .hasMessageContaining("must not be blank"));
        runner.withPropertyValues("distlock.leader.group=" + group, "distlock.leader.lease=0s")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("distlock.leader.lease")
                        .hasMessageContaining("must be from 1 ms"));
    }

    /** A listener bean; kept outside the context so that what it heard at the close can be read after. */
    static final class Recorder implements LeadershipListener {

        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void granted(Leadership term) {
            events.add("granted " + term.group());
        }

        @Override
        public void revoked(Leadership term, Revocation reason) {
            events.add("revoked " + term.group() + " " + reason);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class EventRecording {

        final List<Object> events = new CopyOnWriteArrayList<>();

        @EventListener
        void granted(LeadershipGrantedEvent event) {
            events.add(event);
        }

        @EventListener
        void revoked(LeadershipRevokedEvent event) {
            events.add(event);
        }
    }
}
