package io.distlock.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lock;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What leadership does over any {@link Lock}, on instances that share one in-memory store: one candidate leads at a
 * time, closing hands over at once, and a leader whose lock is gone is told and waits again. What a store's faults do
 * to a leader (a paused server, a killed process) is lock-redis's {@code LeaderElectionFaultsTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeaderElectionTest {

    private static final String GROUP = "reports";
    private static final Duration WATCHDOG_LEASE = Duration.ofSeconds(2);
    /** Room on a loaded machine for a renewal round, a wake-up and a thread's scheduling. */
    private static final Duration SLACK = Duration.ofMillis(1500);

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final List<LeaderElection> elections = new ArrayList<>();
    private final List<StoreLock> locks = new ArrayList<>();
    /** Grants made while another candidate of this test still thought itself the leader. */
    private final AtomicInteger overlappingGrants = new AtomicInteger();

    @AfterEach
    void cleanUp() {
        elections.forEach(LeaderElection::close);
        locks.forEach(StoreLock::close);
    }

    @Test
    void closingTheLeaderHandsLeadershipToTheNextCandidateAtOnce() {
        Candidate first = candidate(instance(store));
        first.election.start();
        await().atMost(Duration.ofSeconds(10)).until(first.election::isLeader);
        Candidate second = candidate(instance(store));
        second.election.start();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !second.election.isLeader());

        long closed = System.nanoTime();
        first.election.close();
        await().atMost(Duration.ofSeconds(10)).until(second.election::isLeader);

        assertThat(Duration.ofNanos(System.nanoTime() - closed)).isLessThan(SLACK);
        assertThat(first.events).containsExactly("granted", "revoked CLOSED");
        assertThat(second.events).containsExactly("granted");
        assertThat(second.election.leadership().orElseThrow().fencingToken())
                .isGreaterThan(first.terms.get(0).fencingToken());
        assertThat(overlappingGrants).hasValue(0);
    }

    @Test
    void aLeaderWhoseKeyIsGoneIsToldWithinALeaseAndAnotherCandidateLeads() {
        Candidate first = candidate(instance(store));
        Candidate second = candidate(instance(store));
        first.election.start();
        await().atMost(Duration.ofSeconds(10)).until(first.election::isLeader);
        second.election.start();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !second.election.isLeader());

        assertThat(store.remove("leader:" + GROUP))
                .as("the leader's key was live")
                .isTrue();

        await().atMost(WATCHDOG_LEASE.plus(SLACK)).until(() -> first.events.contains("revoked LOST"));
        await().atMost(Duration.ofSeconds(10)).until(second.election::isLeader);
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> second.election.isLeader() && !first.election.isLeader());
        assertThat(second.election.leadership().orElseThrow().fencingToken())
                .isGreaterThan(first.terms.get(0).fencingToken());
    }

    /**
     * The broken control of the overlap check: candidates whose locks share no store both lead, and the check sees it,
     * so its 0 above means something.
     */
    @Test
    void candidatesWithoutASharedStoreBothLeadAndTheCheckSeesIt() {
        Candidate first = candidate(instance(new InMemoryLeaseStore()));
        Candidate second = candidate(instance(new InMemoryLeaseStore()));
        first.election.start();
        await().atMost(Duration.ofSeconds(10)).until(first.election::isLeader);
        second.election.start();

        await().atMost(Duration.ofSeconds(10)).until(second.election::isLeader);
        assertThat(first.election.isLeader()).isTrue();
        assertThat(overlappingGrants).hasValue(1);
    }

    /** One instance of the application: a lock of its own over the given store. */
    private StoreLock instance(InMemoryLeaseStore shared) {
        StoreLock lock = StoreLock.builder(shared).watchdogLease(WATCHDOG_LEASE).build();
        locks.add(lock);
        return lock;
    }

    private Candidate candidate(Lock lock) {
        Candidate candidate = new Candidate();
        candidate.election =
                LeaderElection.builder(lock, GROUP).listener(candidate).build();
        elections.add(candidate.election);
        return candidate;
    }

    /** One instance of the group, recording what its listener is told. */
    private final class Candidate implements LeadershipListener {

        LeaderElection election;
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Leadership> terms = new CopyOnWriteArrayList<>();

        @Override
        public void granted(Leadership term) {
            for (LeaderElection other : elections) {
                if (other != election && other.isLeader()) {
                    overlappingGrants.incrementAndGet();
                }
            }
            terms.add(term);
            events.add("granted");
        }

        @Override
        public void revoked(Leadership term, Revocation reason) {
            events.add("revoked " + reason);
        }
    }
}
