package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Why Redlock's nodes must keep their data or stay down for a lease after a crash: a node restarted at once without
 * its data forgets the locks it granted, and a second owner can then find a majority. Kept down until the holder's
 * lease has ended (a delayed restart), it lets nobody in early. The test servers persist nothing, as a node with
 * {@code appendonly no} would.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedlockRestartTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(3));

    private static List<TestRedis> servers;

    private final RedlockClients clients = new RedlockClients(servers);
    private final String key = "redlock-restart:" + UUID.randomUUID();

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
    void aNodeRestartedAtOnceWithoutItsDataLetsASecondOwnerIn() throws Exception {
        LockHandle first = heldOnTheFirstTwoNodesOnly();

        servers.get(1).kill();
        servers.get(1).startAgain();
        Optional<LockHandle> second = clients.lock().tryAcquire(key, LEASE);

        assertThat(second)
                .as("the forgetful node and the third one make a majority")
                .isPresent();
        assertThat(first.isLost())
                .as("the first holder's lease is still running")
                .isFalse();
    }

    @Test
    void aNodeKeptDownForTheLeaseBeforeRestartingLetsNoSecondOwnerIn() throws Exception {
        LockHandle first = heldOnTheFirstTwoNodesOnly();
        servers.get(1).kill();
        Redlock second = clients.lock();

        while (!first.isLost()) {
            // The second sees the first holder on one node and the dead node fail, so it cannot tell that the first
            // has a majority: it keeps its grant and asks that node again for up to the settle budget (GrantVote).
            // Asked just before the first lease ends, it may get the key once that lease is over, and only then.
            second.tryAcquire(key, LEASE).ifPresent(taken -> {
                assertThat(first.isLost())
                        .as("the first holder counts its lease as over when a second owner gets the key")
                        .isTrue();
                taken.release();
            });
        }
        servers.get(1).startAgain();

        await().atMost(Duration.ofSeconds(5))
                .until(() -> second.tryAcquire(key, LEASE).isPresent());
    }

    /** A hold whose key lives on nodes 0 and 1: node 2 was down when it was granted, and is back, empty. */
    private LockHandle heldOnTheFirstTwoNodesOnly() throws Exception {
        servers.get(2).kill();
        LockHandle held = clients.lock().tryAcquire(key, LEASE).orElseThrow();
        servers.get(2).startAgain();
        assertThat(servers.stream().map(server -> server.command("EXISTS", "{distlock:" + key + "}")))
                .containsExactly("1", "1", "0");
        return held;
    }
}
