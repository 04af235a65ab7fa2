package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lock;
import io.distlock.leader.LeaderElection;
import io.distlock.leader.Leadership;
import io.distlock.leader.LeadershipListener;
import io.distlock.leader.Revocation;
import io.distlock.tck.process.ChildJvm;
import io.distlock.tck.process.ChildLine;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Leadership when the store or the leader fails, over a Redis lock: a paused Redis revokes the leader within a lease,
 * before anyone else can lead; a leader killed with SIGKILL is followed within a lease. What leadership does over any
 * lock (one leader at a time, the hand-over at close, the overlap check's broken control) is lock-core's
 * {@code LeaderElectionTest}, on the in-memory store.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LeaderElectionFaultsTest {

    private static final Duration WATCHDOG_LEASE = Duration.ofSeconds(2);
    /** Room on a loaded machine for a renewal round, a wake-up and a thread's scheduling. */
    private static final Duration SLACK = Duration.ofMillis(1500);

    private final String group = "group-" + UUID.randomUUID();
    private final List<LeaderElection> elections = new ArrayList<>();
    private final List<RedisClients> clients = new ArrayList<>();
    /** Grants made while another candidate of this JVM still thought itself the leader: must stay 0. */
    private final AtomicInteger overlappingGrants = new AtomicInteger();

    private ChildJvm process;

    @AfterEach
    void cleanUp() throws Exception {
        elections.forEach(LeaderElection::close);
        for (RedisClients client : clients) {
            client.close();
        }
        if (process != null) {
            process.close();
        }
    }

    @Test
    void aPausedRedisRevokesTheLeaderWithinALeaseAndNobodyLeadsUntilItIsBack() {
        try (TestRedis redis = TestRedis.start()) {
            Candidate first = candidate(redis);
            Candidate second = candidate(redis);
            first.election.start();
            await().atMost(Duration.ofSeconds(10)).until(first.election::isLeader);
            second.election.start();

            long paused = System.nanoTime();
            redis.pause();
            try {
                await().atMost(WATCHDOG_LEASE.plus(SLACK)).until(() -> !first.election.isLeader());
                Duration revoked = Duration.ofNanos(System.nanoTime() - paused);
                System.out.printf(
                        "Leadership, Redis paused to the leader's revocation (watchdog lease %d ms): %d ms%n",
                        WATCHDOG_LEASE.toMillis(), revoked.toMillis());
                assertThat(revoked).isLessThan(WATCHDOG_LEASE.plus(SLACK));
                await().atMost(Duration.ofSeconds(5)).until(() -> first.events.contains("revoked LOST"));
                assertThat(second.election.isLeader()).isFalse();
            } finally {
                redis.resume();
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> first.election.isLeader() || second.election.isLeader());
            assertThat(overlappingGrants).hasValue(0);
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // above the child's generous start-up wait, ChildJvm.LINE_WAIT
    void aLeaderKilledWithSigkillIsFollowedWithinOneLease() throws Exception {
        process = ChildJvm.start(
                LeaderProcess.class,
                Integer.toString(TestRedis.shared().port()),
                group,
                Long.toString(WATCHDOG_LEASE.toMillis()));
        ChildLine leading = process.awaitLine(LeaderProcess.LEADER + " ");
        long processToken = Long.parseLong(leading.text().substring(LeaderProcess.LEADER.length() + 1));
        Candidate next = candidate(TestRedis.shared());
        next.election.start();
        // Several renewals: the process leads through its watchdog, not through a long first lease.
        await().during(WATCHDOG_LEASE.multipliedBy(2))
                .atMost(WATCHDOG_LEASE.multipliedBy(4))
                .until(() -> !next.election.isLeader());

        long killed = System.nanoTime();
        process.kill();
        await().atMost(WATCHDOG_LEASE.plus(SLACK).multipliedBy(2)).until(next.election::isLeader);

        Duration followed = Duration.ofNanos(System.nanoTime() - killed);
        System.out.printf(
                "Leadership, SIGKILL of the leader's process to the next grant (watchdog lease %d ms): %d ms%n",
                WATCHDOG_LEASE.toMillis(), followed.toMillis());
        assertThat(followed).isLessThan(WATCHDOG_LEASE.plus(SLACK));
        assertThat(next.election.leadership().orElseThrow().fencingToken()).isGreaterThan(processToken);
    }

    private Candidate candidate(TestRedis redis) {
        RedisClients client = new RedisClients(redis);
        clients.add(client);
        return candidate(client.lock(builder -> builder.watchdogLease(WATCHDOG_LEASE)));
    }

    private Candidate candidate(Lock lock) {
        Candidate candidate = new Candidate();
        candidate.election =
                LeaderElection.builder(lock, group).listener(candidate).build();
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
