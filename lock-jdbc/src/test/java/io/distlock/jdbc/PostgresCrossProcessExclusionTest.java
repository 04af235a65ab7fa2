package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two JVM processes with several threads each do non-atomic read-modify-writes of shared counter rows, each under the
 * counter's lock: no update is lost, no two sections overlap, and fencing tokens only grow. The same workload without
 * the lock loses updates, which shows that the test can fail.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PostgresCrossProcessExclusionTest {

    private static final Pattern DONE =
            Pattern.compile("DONE entries=(\\d+) overlaps=(\\d+) fencingRegressions=(\\d+) lockErrors=(\\d+)");
    private static final int PROCESSES = 2;
    private static final int THREADS = 3;

    private static TestPostgres postgres;

    private final List<Process> workers = new ArrayList<>();

    @BeforeAll
    static void startPostgres() throws SQLException {
        postgres = TestPostgres.start();
        JdbcLeaseStore.builder(postgres.dataSource()).createTableIfMissing(true).build();
        try (Connection connection = postgres.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE counters (name VARCHAR(200) PRIMARY KEY, value BIGINT NOT NULL,"
                    + " inside INT NOT NULL, last_fence BIGINT NOT NULL)");
        }
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @AfterEach
    void killWorkers() throws InterruptedException {
        for (Process worker : workers) {
            worker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void lockedReadModifyWritesAcrossProcessesLoseNothing() throws Exception {
        String[] keys = newCounters("locked", 2);

        Result result = runWorkers("lock", 8000, keys);

        System.out.printf(
                "PostgreSQL cross-process exclusion WITH the lock (%d processes x %d threads, 8 s, %d keys): %s%n",
                PROCESSES, THREADS, keys.length, result);
        assertThat(result.entries).isGreaterThan(50);
        assertThat(result.lockErrors).isZero();
        assertThat(result.overlaps).isZero();
        assertThat(result.fencingRegressions).isZero();
        assertThat(result.lostUpdates()).isZero();
    }

    @Test
    void withoutTheLockTheSameWorkloadLosesUpdates() throws Exception {
        String[] keys = newCounters("control", 2);

        Result result = runWorkers("none", 3000, keys);

        System.out.printf(
                "PostgreSQL cross-process exclusion WITHOUT the lock (control, %d processes x %d threads, 3 s, %d keys):"
                        + " %s%n",
                PROCESSES, THREADS, keys.length, result);
        assertThat(result.overlaps).isPositive();
        assertThat(result.lostUpdates()).isPositive();
    }

    private Result runWorkers(String mode, long runMillis, String[] keys) throws Exception {
        for (int p = 0; p < PROCESSES; p++) {
            workers.add(TestProcesses.start(
                    ExclusionWorkerProcess.class,
                    Integer.toString(postgres.port()),
                    mode,
                    Integer.toString(THREADS),
                    Long.toString(runMillis),
                    String.join(",", keys)));
        }
        Result total = new Result();
        for (Process worker : workers) {
            Matcher done = DONE.matcher(TestProcesses.awaitLine(worker, "DONE ", runMillis / 1000 + 30));
            assertThat(done.matches()).isTrue();
            total.entries += Long.parseLong(done.group(1));
            total.overlaps += Long.parseLong(done.group(2));
            total.fencingRegressions += Long.parseLong(done.group(3));
            total.lockErrors += Long.parseLong(done.group(4));
        }
        total.counted = sumCounters(keys);
        return total;
    }

    private static String[] newCounters(String name, int count) throws SQLException {
        String[] keys = new String[count];
        try (Connection connection = postgres.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO counters (name, value, inside, last_fence) VALUES (?, 0, 0, 0)")) {
            for (int i = 0; i < count; i++) {
                keys[i] = "exclusion:" + name + ":" + i + ":" + UUID.randomUUID();
                insert.setString(1, keys[i]);
                insert.executeUpdate();
            }
        }
        return keys;
    }

    private static long sumCounters(String[] keys) throws SQLException {
        long sum = 0;
        try (Connection connection = postgres.dataSource().getConnection();
                PreparedStatement read = connection.prepareStatement("SELECT value FROM counters WHERE name = ?")) {
            for (String key : keys) {
                read.setString(1, key);
                try (ResultSet row = read.executeQuery()) {
                    row.next();
                    sum += row.getLong(1);
                }
            }
        }
        return sum;
    }

    /** The workers' tallies added up, and what the counters say. */
    private static final class Result {
        long entries;
        long overlaps;
        long fencingRegressions;
        long lockErrors;
        long counted;

        long lostUpdates() {
            return entries - counted;
        }

        @Override
        public String toString() {
            return "sections=" + entries + ", counted=" + counted + ", lostUpdates=" + lostUpdates() + ", overlaps="
                    + overlaps + ", fencingRegressions=" + fencingRegressions + ", lockErrors=" + lockErrors;
        }
    }
}
