package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Fencing tokens and renewals of a Redlock over three real Redis servers whose counters and keys differ. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedlockFencingAndRenewalTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    private static List<TestRedis> servers;

    private final RedlockClients clients = new RedlockClients(servers);
    private final String key = "redlock-fencing:" + UUID.randomUUID();
    private final String lockKey = "{distlock:" + key + "}";

    @BeforeAll
    static void startServers() {
        servers = RedlockClients.startServers(3);
    }

    @AfterAll
    static void stopServers() {
        servers.forEach(TestRedis::close);
    }

    @AfterEach
    void restoreServers() throws Exception {
        clients.close();
        RedlockClients.restartThoseDown(servers);
    }

    @Test
    void theNextMajorityCountsPastTheHighestCounterOfTheLastOne() throws Exception {
        // Without its scripts, node 2 answers NOSCRIPT and gets them again by EVAL, out of order: its release may run
        // before the grant it releases, which only a release after the late grant undoes.
        servers.forEach(server -> server.command("SCRIPT", "FLUSH"));
        servers.get(0).command("SET", lockKey + ":fence", "100");
        // Node 2 frozen: the majority is nodes 0 and 1, whose counters differ.
        servers.get(2).pause();
        LockHandle first;
        try {
            first = clients.lock().tryAcquire(key, LONG).orElseThrow();
        } finally {
            servers.get(2).resume();
        }
        long firstToken = first.fencingToken();
        first.release();
        // The release counted once nodes 0 and 1 confirmed it; node 2 runs it after the late grant it is behind.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> servers.get(2).command("EXISTS", lockKey).equals("0"));

        servers.get(0).kill();
        LockHandle second = clients.lock().tryAcquire(key, LONG).orElseThrow();

        assertThat(firstToken).isEqualTo(101);
        assertThat(second.fencingToken())
                .as("nodes 1 and 2 alone never counted past 2: the first grant raised node 1 to its token")
                .isGreaterThan(firstToken);
    }

    @Test
    void equalCountersNeedNoRaiseAndStayEqual() throws Exception {
        Redlock lock = clients.lock();
        everyNodeAnswered(lock);
        for (int i = 1; i <= 3; i++) {
            LockHandle held = lock.tryAcquire(key, LONG).orElseThrow();
            assertThat(held.fencingToken()).isEqualTo(i);
            held.release();
        }
        // The last node to answer may still be working through the commands it was sent.
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(
                                servers.stream().map(server -> server.command("GET", lockKey + ":fence")))
                        .containsOnly("3"));
    }

    @Test
    void aRenewedHoldOutlivesOneNodeDown() throws Exception {
        Redlock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofSeconds(2)));
        LockHandle held = lock.tryAcquire(key).orElseThrow();

        servers.get(2).kill();

        await().pollDelay(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6)).until(() -> !held.isLost());
        assertThat(held.isHeld()).isTrue();
        assertThat(held.remainingLease()).isPositive();
        held.release();
    }

    @Test
    void aRenewedHoldIsReportedLostOnceTheMajorityForgetsIt() throws Exception {
        Redlock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofSeconds(1)));
        LockHandle held = lock.tryAcquire(key).orElseThrow();
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        held.onLost(lost::complete);
        // A grant counts once a majority answered; the third node's may still be on its way and would re-create it.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> servers.stream()
                        .allMatch(server -> server.command("EXISTS", lockKey).equals("1")));

        servers.get(1).command("DEL", lockKey);
        servers.get(2).command("DEL", lockKey);

        assertThat(lost.get(10, TimeUnit.SECONDS).reason()).isEqualTo(LockLostException.Reason.KEY_GONE);
        assertThat(held.isLost()).isTrue();
    }

    /**
     * Waits until every node has run an acquisition and a release of this lock, so that every node has its connection
     * and the scripts: a
     * node that must first get a script by EVAL after NOSCRIPT may run this lock's commands out of order, and miss a
     * grant that the counters here count.
     */
    private void everyNodeAnswered(Redlock lock) {
        String warmUp = "warm-up:" + key;
        LockHandle held = lock.tryAcquire(warmUp, LONG).orElseThrow();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> servers.stream()
                        .allMatch(server -> server.command("EXISTS", "{distlock:" + warmUp + "}")
                                .equals("1")));
        held.release();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> servers.stream()
                        .allMatch(server -> server.command("EXISTS", "{distlock:" + warmUp + "}")
                                .equals("0")));
    }
}
