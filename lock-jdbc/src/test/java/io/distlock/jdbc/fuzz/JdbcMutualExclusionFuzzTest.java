package io.distlock.jdbc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.jdbc.JdbcLeaseStore;
import io.distlock.jdbc.TestPostgres;
import io.distlock.tck.fuzz.FuzzLock;
import io.distlock.tck.fuzz.FuzzServers;
import io.distlock.tck.fuzz.FuzzSettings;
import io.distlock.tck.fuzz.MutualExclusionFuzz;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cross-process mutual-exclusion fuzz ({@link MutualExclusionFuzz}) on {@link io.distlock.store.StoreLock}
 * over PostgreSQL ({@link JdbcLeaseStore}). The checker reads each key's owner and lease from the lock table just before
 * it judges (see {@link JdbcLockView}); its records need no server. A control run drives a
 * StoreLock whose store keeps each key for a thousandth of the lease, which the checker must catch. The fair lock's run,
 * the semaphore's, the read-write run (readers as the key's slot rows) and the path run (each path's holder row) are
 * judged the same way.
 *
 * <p>The tables are printed to the test's output (under {@code target/surefire-reports}). The run is sized for the
 * build; a soak raises it with the settings of {@link FuzzSettings}:
 *
 * <pre>
 * ./mvnw -pl lock-jdbc -am test -Dtest='io/distlock/jdbc/fuzz/Jdbc*Test' -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfuzz.seconds=300 -Dfuzz.processes=3 -Dfuzz.threads=6
 * </pre>
 */
class JdbcMutualExclusionFuzzTest {

    private static TestPostgres postgres;
    private static FuzzServers servers;

    @BeforeAll
    static void startServers() {
        postgres = TestPostgres.start();
        // Created once here: workers that all create a missing table at once may collide in PostgreSQL's catalog.
        JdbcLeaseStore.builder(postgres.dataSource()).createTableIfMissing(true).build();
        servers = FuzzServers.store(
                JdbcFuzzLocks.url(postgres.port()), "PostgreSQL :" + postgres.port() + " (table distlock_locks)");
    }

    @AfterAll
    static void stopServers() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void storeLockOnPostgresNeverLetsTwoHoldersIntoTheSameCriticalSection() {
        MutualExclusionFuzz.runWithoutViolations(
                servers, FuzzLock.storeLock(JdbcFuzzLocks.class), FuzzSettings.fromEnvironment(6, 2, 5, 4));
    }

    @Test
    void aSemaphoreOnPostgresNeverLetsMoreSectionsIntoAKeyThanItHasPermits() {
        MutualExclusionFuzz.runWithoutViolations(
                servers,
                FuzzLock.storeSemaphore(JdbcFuzzLocks.class),
                FuzzSettings.fromEnvironment(6, 2, 5, 4),
                MutualExclusionFuzz::showsPermitsShared);
    }

    @Test
    void theFairLockOnPostgresNeverLetsTwoHoldersIntoTheSameCriticalSection() {
        MutualExclusionFuzz.runWithoutViolations(
                servers, FuzzLock.storeFair(JdbcFuzzLocks.class), FuzzSettings.fromEnvironment(6, 2, 5, 4));
    }

    @Test
    void readersOnPostgresShareAKeyButNeverWithAWriter() {
        MutualExclusionFuzz.runWithoutViolations(
                servers,
                FuzzLock.storeReadWrite(JdbcFuzzLocks.class),
                FuzzSettings.fromEnvironment(6, 2, 5, 4),
                report -> assertThat(report.records().readersBesideReaders())
                        .as("readers that entered while another reader was inside")
                        .isPositive());
    }

    @Test
    void pathsOnPostgresAreNeverEnteredWhileAnAncestorOrDescendantIsHeld() {
        MutualExclusionFuzz.runWithoutViolations(
                servers,
                FuzzLock.storePath(JdbcFuzzLocks.class),
                FuzzSettings.fromEnvironment(6, 2, 6, 1),
                MutualExclusionFuzz::showsPathsApartAndRelativesRefused);
    }

    @Test
    void theCheckerCatchesASemaphoreOfOnePermitTooMany() {
        MutualExclusionFuzz.runCaught(
                servers, FuzzLock.storeSemaphoreOfOneTooMany(JdbcFuzzLocks.class), FuzzSettings.control());
    }

    @Test
    void theCheckerCatchesAStoreThatKeepsKeysForAThousandthOfTheLease() {
        MutualExclusionFuzz.runCaught(
                servers, FuzzLock.shortLeaseStoreLock(JdbcFuzzLocks.class), FuzzSettings.control());
    }
}
