package io.distlock.sample.inventory.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoRunTest {

    @Test
    void lockedRunThatSoldExactlyTheStockIsCorrect() {
        DemoRun run = run(Map.of(200, 100, 409, 1890, 503, 10), 0, 0);

        assertThat(run.isCorrect()).isTrue();
        assertThat(run.oversold()).isZero();
        assertThat(run.lostUpdates()).isZero();
    }

    @Test
    void runThatSoldMoreThanTheStockOversoldAndLostUpdates() {
        DemoRun run = run(Map.of(200, 371, 409, 1629), 0, 4);

        assertThat(run.isCorrect()).isFalse();
        assertThat(run.oversold()).isEqualTo(271);
        assertThat(run.lostUpdates()).isEqualTo(275);
    }

    @Test
    void unansweredOrdersOrUnexpectedAnswersAreNeverCorrect() {
        assertThat(run(Map.of(200, 100, 500, 1), 0, 0).isCorrect()).isFalse();
        assertThat(run(Map.of(200, 100), 1, 0).isCorrect()).isFalse();
        assertThat(run(Map.of(200, 99, 503, 1900), 0, 1).isCorrect()).isFalse();
    }

    @Test
    void reportShowsEachRunInAColumn() {
        DemoRun locked = run(Map.of(200, 100, 409, 1890, 503, 10), 0, 0);
        DemoRun unprotected = run(Map.of(200, 371, 409, 1629), 0, 0);

        String table = DemoReport.table(List.of(locked, unprotected));

        assertThat(table)
                .containsPattern("orders placed +2000 +2000")
                .containsPattern("sold \\(200\\) +100 +371")
                .containsPattern("rejected: out of stock \\(409\\) +1890 +1629")
                .containsPattern("rejected: lock timeout \\(503\\) +10 +0")
                .containsPattern("oversold units +0 +271")
                .containsPattern("throughput \\(orders/s\\) +1000 +1000");
    }

    private static DemoRun run(Map<Integer, Integer> statuses, int failures, long finalStock) {
        LoadResult result = new LoadResult(statuses, failures, null, Duration.ofSeconds(2));
        return new DemoRun("/orders", "test", 100, result, finalStock);
    }
}
