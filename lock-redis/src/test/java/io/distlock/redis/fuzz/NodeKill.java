package io.distlock.redis.fuzz;

import static org.awaitility.Awaitility.await;

import io.distlock.tck.fuzz.Disruption;
import io.distlock.tck.fuzz.RunInProgress;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.Optional;

/**
 * SIGKILLs one Redlock node part-way through a fuzz run, once a third of the run has passed and sections have run, and
 * leaves it down: the rest of the run shows whether the workers go on with the majority that is left. What happened
 * when is kept as a {@link Timeline}.
 */
final class NodeKill implements Disruption {

    private static final Duration POLL = Duration.ofMillis(20);

    private final TestRedis node;
    private Timeline timeline;

    NodeKill(TestRedis node) {
        this.node = node;
    }

    @Override
    public void during(RunInProgress run) {
        Duration partWay = run.length().dividedBy(3);
        await("a third of the run, with sections")
                .atMost(run.length())
                .pollInterval(POLL)
                .until(() -> run.sinceStart().compareTo(partWay) >= 0 && run.sectionsOn(run.keyNames()) > 0);
        long violationsBeforeKill = run.violationsSoFar();
        long sectionsBeforeKill = run.sectionsOn(run.keyNames());
        Duration killedAt = run.sinceStart();
        node.kill();
        await("a section after the kill, or the run's end")
                .atMost(run.length())
                .pollInterval(POLL)
                .until(() -> run.sectionsOn(run.keyNames()) > sectionsBeforeKill
                        || run.sinceStart().compareTo(run.length()) >= 0);
        Optional<Duration> resumedAt =
                run.sectionsOn(run.keyNames()) > sectionsBeforeKill ? Optional.of(run.sinceStart()) : Optional.empty();
        await("the run's end")
                .atMost(run.length())
                .pollInterval(POLL)
                .until(() -> run.sinceStart().compareTo(run.length()) >= 0);
        timeline = new Timeline(
                node.port(),
                sectionsBeforeKill,
                violationsBeforeKill,
                killedAt,
                resumedAt,
                run.sectionsOn(run.keyNames()) - sectionsBeforeKill);
    }

    /**
     * What happened when, once the run has been disrupted.
     *
     * @throws IllegalStateException if the node was not killed
     */
    Timeline timeline() {
        if (timeline == null) {
            throw new IllegalStateException("the node was not killed");
        }
        return timeline;
    }

    /**
     * The course of one kill, times from the workers' start signal.
     *
     * @param port the node that was killed
     * @param sectionsBeforeKill sections the checker had seen enter before the kill, on all keys
     * @param violationsBeforeKill violations the checker had counted before the kill
     * @param killedAt when the node was SIGKILLed
     * @param resumedAt when the checker first saw a section enter after the kill, if before the run's end
     * @param sectionsAfterKill sections the checker saw enter from the kill to the run's end
     */
    record Timeline(
            int port,
            long sectionsBeforeKill,
            long violationsBeforeKill,
            Duration killedAt,
            Optional<Duration> resumedAt,
            long sectionsAfterKill) {

        /** A table of the kill's course, in the style of the fuzz report. */
        String table() {
            return String.join(
                    System.lineSeparator(),
                    "| Redlock node killed | |",
                    "|---|---|",
                    "| node (SIGKILLed, left down) | :" + port + " |",
                    "| killed at | " + seconds(killedAt) + " |",
                    "| sections before the kill | " + String.format("%,d", sectionsBeforeKill) + " |",
                    "| violations before the kill | " + violationsBeforeKill + " |",
                    "| first section after the kill | "
                            + resumedAt.map(Timeline::seconds).orElse("none") + " |",
                    "| sections after the kill | " + String.format("%,d", sectionsAfterKill) + " |");
        }

        private static String seconds(Duration duration) {
            return String.format("%.1f s", duration.toMillis() / 1000.0);
        }
    }
}
