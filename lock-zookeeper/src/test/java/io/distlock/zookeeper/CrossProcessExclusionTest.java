package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two JVMs of three threads each increment one counter node with a non-atomic read-modify-write on a shared key: with
 * the lock no update is lost and no two critical sections overlap; without it (the control, which shows that the test
 * can fail) updates are lost.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrossProcessExclusionTest {

    private static final int PROCESSES = 2;
    private static final int THREADS = 3;

    private static TestZooKeeper zookeeper;

    private final List<Process> processes = new ArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @AfterEach
    void stopProcesses() throws Exception {
        for (Process process : processes) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void withTheLockNoUpdateIsLostAcrossProcesses() throws Exception {
        Outcome outcome = run("lock", Duration.ofSeconds(5));

        System.out.println("with the lock: " + outcome);
        // Enough read-modify-writes that the six threads must have met at the lock: some hundreds on a quiet machine,
        // 18 in 4 s on a machine busy with three builds' worth of tests.
        assertThat(outcome.increments()).isGreaterThanOrEqualTo(2 * PROCESSES * THREADS);
        assertThat(outcome.overlaps()).isZero();
        assertThat(outcome.lostUpdates()).isZero();
    }

    @Test
    void withoutTheLockUpdatesAreLost() throws Exception {
        Outcome outcome = run("none", Duration.ofSeconds(2));

        System.out.println("without the lock: " + outcome);
        assertThat(outcome.lostUpdates()).isPositive();
        assertThat(outcome.overlaps()).isPositive();
    }

    private Outcome run(String mode, Duration duration) throws Exception {
        CuratorFramework client = zookeeper.newClient();
        String counter = "/counters/" + UUID.randomUUID();
        client.create().creatingParentsIfNeeded().forPath(counter, "0".getBytes(StandardCharsets.UTF_8));
        String key = "exclusion:" + UUID.randomUUID();
        for (int p = 0; p < PROCESSES; p++) {
            processes.add(ProcessSupport.start(
                    CounterProcess.class,
                    zookeeper.connectString(),
                    key,
                    counter,
                    Integer.toString(THREADS),
                    Long.toString(duration.toMillis()),
                    mode));
        }
        long increments = 0;
        long overlaps = 0;
        for (Process process : processes) {
            String done = ProcessSupport.awaitLine(process, duration.plusSeconds(20), "DONE ", "FAILED ");
            assertThat(done).as("process finished").startsWith("DONE ");
            String[] parts = done.split(" ");
            increments += Long.parseLong(parts[1]);
            overlaps += Long.parseLong(parts[2]);
        }
        long counted = Long.parseLong(new String(client.getData().forPath(counter), StandardCharsets.UTF_8));
        return new Outcome(increments, counted, overlaps);
    }

    record Outcome(long increments, long counted, long overlaps) {
        long lostUpdates() {
            return increments - counted;
        }
    }
}
