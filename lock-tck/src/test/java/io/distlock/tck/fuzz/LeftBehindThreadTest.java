package io.distlock.tck.fuzz;

import static io.distlock.tck.fuzz.WorkerPoolTest.assertRanWell;
import static io.distlock.tck.fuzz.WorkerPoolTest.pids;
import static io.distlock.tck.fuzz.WorkerPoolTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose thread outlives its lock fails, and its worker JVM serves no other run. A class of its own, so that the
 * build runs it in another test JVM beside {@link WorkerPoolTest}: its worker waits out the whole bound on ending
 * threads before it can tell that one was left behind.
 */
class LeftBehindThreadTest {

    @TempDir
    Path dir;

    @Test
    void aRunWhoseThreadOutlivedItsLockIsAnErrorAndItsWorkerServesNoOtherRun() throws IOException {
        Path pids = dir.resolve("pids");

        FuzzReport leaking = run(InMemoryFuzzLocks.LEAVES_A_THREAD, pids);
        FuzzReport after = run(InMemoryFuzzLocks.WORKS, pids);

        assertThat(leaking.exitStatuses())
                .as("status of the leaking run's worker")
                .containsExactly(4);
        assertThat(leaking.errors()).as("errors of the leaking run").isPositive();
        assertThat(leaking.evidence())
                .contains("alive after its lock was closed")
                .contains(InMemoryFuzzLocks.LEFT_THREAD);
        assertRanWell(after);
        List<Long> served = pids(pids);
        assertThat(served).as("process ids of the workers of both runs").hasSize(2);
        assertThat(served.get(1)).as("the next run's worker").isNotEqualTo(served.get(0));
    }
}
