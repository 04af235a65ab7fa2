package io.distlock.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker JVMs serve run after run, and a worker whose run went wrong serves no other: runs of one process on an
 * in-memory lock ({@link InMemoryFuzzLocks}), whose workers write down their process ids. A run that leaves a thread
 * behind is {@link LeftBehindThreadTest}'s, in a test JVM and worker pool of its own, since its worker waits out the
 * bound on ending threads.
 */
class WorkerPoolTest {

    /** One worker, two threads, two keys, two seconds: enough sections to judge, little time. */
    private static final FuzzSettings ONE_WORKER = new FuzzSettings(2, 1, 2, 2, 42, false);

    @TempDir
    Path dir;

    @Test
    void oneWorkerJvmServesTwoRunsInARow() throws IOException {
        Path pids = dir.resolve("pids");

        FuzzReport first = run(InMemoryFuzzLocks.WORKS, pids);
        FuzzReport second = run(InMemoryFuzzLocks.WORKS, pids);

        assertRanWell(first);
        assertRanWell(second);
        List<Long> served = pids(pids);
        assertThat(served).as("process ids of the workers of both runs").hasSize(2);
        assertThat(served.get(1)).as("the second run's worker").isEqualTo(served.get(0));
    }

    @Test
    void aWorkerWhoseRunFailedIsKilledAndTheNextRunGetsAFreshOne() throws IOException {
        Path pids = dir.resolve("pids");
        assertRanWell(run(InMemoryFuzzLocks.WORKS, pids));

        assertThatThrownBy(() -> run(InMemoryFuzzLocks.FAILS_TO_OPEN, pids))
                .hasMessageContaining("was not ready")
                .hasMessageContaining("this lock fails to open, as asked");
        FuzzReport after = run(InMemoryFuzzLocks.WORKS, pids);

        assertRanWell(after);
        List<Long> served = pids(pids);
        assertThat(served).as("process ids of the workers of the three runs").hasSize(3);
        assertThat(served.get(1)).as("the failed run's worker").isEqualTo(served.get(0));
        assertThat(served.get(2)).as("the next run's worker").isNotEqualTo(served.get(1));
        assertThat(ProcessHandle.of(served.get(1)).filter(ProcessHandle::isAlive))
                .as("the failed run's worker JVM")
                .isEmpty();
    }

    static FuzzReport run(String variant, Path pids) {
        return MutualExclusionFuzz.run(
                FuzzServers.store("memory", "one in-memory store per worker"),
                InMemoryFuzzLocks.lock(variant, pids),
                ONE_WORKER);
    }

    static void assertRanWell(FuzzReport report) {
        assertThat(report.errors())
                .as("errors; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(report.exitStatuses()).as("statuses of the run's workers").containsExactly(0);
        assertThat(report.violations())
                .as("violations; evidence:%n%s", report.evidence())
                .isZero();
        assertThat(report.records().sectionsChecked()).as("sections checked").isPositive();
    }

    static List<Long> pids(Path pids) throws IOException {
        return Files.readAllLines(pids, StandardCharsets.UTF_8).stream()
                .map(Long::valueOf)
                .toList();
    }
}
