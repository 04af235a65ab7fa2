package io.distlock.zookeeper.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fuzz.FuzzLock;
import io.distlock.tck.fuzz.FuzzServers;
import io.distlock.tck.fuzz.FuzzSettings;
import io.distlock.tck.fuzz.MutualExclusionFuzz;
import io.distlock.zookeeper.TestZooKeeper;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cross-process mutual-exclusion fuzz ({@link MutualExclusionFuzz}) on {@link io.distlock.store.StoreLock} over
 * ZooKeeper ({@link io.distlock.zookeeper.ZooKeeperLeaseStore}). The checker reads each key's holder and lease from the
 * head of its queue, a read-write run's from the granted nodes of the key's queue, and a path's from the path's
 * granted node under its tree's node, just before it judges (see {@link
 * ZooKeeperLockView}); its records need no server. A control run drives a StoreLock whose store keeps each key for a
 * thousandth of the lease, which the checker must catch.
 *
 * <p>The tables are printed to the test's output (under {@code target/surefire-reports}). The run is sized for the
 * build; a soak raises it with the settings of {@link FuzzSettings}:
 *
 * <pre>
 * ./mvnw -pl lock-zookeeper -am test -Dtest='io/distlock/zookeeper/fuzz/ZooKeeper*Test' \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dfuzz.seconds=300 -Dfuzz.processes=3 -Dfuzz.threads=6
 * </pre>
 */
class ZooKeeperMutualExclusionFuzzTest {

    private static TestZooKeeper zooKeeper;
    private static FuzzServers servers;

    @BeforeAll
    static void startServers() throws Exception {
        zooKeeper = new TestZooKeeper();
        servers = FuzzServers.store(zooKeeper.connectString(), "ZooKeeper " + zooKeeper.connectString());
    }

    @AfterAll
    static void stopServers() throws IOException {
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void storeLockOnZooKeeperNeverLetsTwoHoldersIntoTheSameCriticalSection() {
        MutualExclusionFuzz.runWithoutViolations(
                servers, FuzzLock.storeLock(ZooKeeperFuzzLocks.class), FuzzSettings.fromEnvironment(6, 2, 5, 4));
    }

    @Test
    void aSemaphoreOnZooKeeperNeverLetsMoreSectionsIntoAKeyThanItHasPermits() {
        MutualExclusionFuzz.runWithoutViolations(
                servers,
                FuzzLock.storeSemaphore(ZooKeeperFuzzLocks.class),
                FuzzSettings.fromEnvironment(6, 2, 5, 4),
                MutualExclusionFuzz::showsPermitsShared);
    }

    @Test
    void readersOnZooKeeperShareAKeyButNeverWithAWriter() {
        MutualExclusionFuzz.runWithoutViolations(
                servers,
                FuzzLock.storeReadWrite(ZooKeeperFuzzLocks.class),
                FuzzSettings.fromEnvironment(6, 2, 5, 4),
                report -> assertThat(report.records().readersBesideReaders())
                        .as("readers that entered while another reader was inside")
                        .isPositive());
    }

    @Test
    void pathsOnZooKeeperAreNeverEnteredWhileAnAncestorOrDescendantIsHeld() {
        MutualExclusionFuzz.runWithoutViolations(
                servers,
                FuzzLock.storePath(ZooKeeperFuzzLocks.class),
                FuzzSettings.fromEnvironment(6, 2, 6, 1),
                MutualExclusionFuzz::showsPathsApartAndRelativesRefused);
    }

    @Test
    void theCheckerCatchesASemaphoreOfOnePermitTooMany() {
        MutualExclusionFuzz.runCaught(
                servers, FuzzLock.storeSemaphoreOfOneTooMany(ZooKeeperFuzzLocks.class), FuzzSettings.control());
    }

    @Test
    void theCheckerCatchesAStoreThatKeepsKeysForAThousandthOfTheLease() {
        MutualExclusionFuzz.runCaught(
                servers, FuzzLock.shortLeaseStoreLock(ZooKeeperFuzzLocks.class), FuzzSettings.control());
    }
}
