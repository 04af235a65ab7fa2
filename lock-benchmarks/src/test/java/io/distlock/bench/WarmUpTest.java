package io.distlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the warm-up's rounds end. */
class WarmUpTest {

    private static final Duration ROUND = Duration.ofSeconds(2);
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @Test
    void roundsGoOnWhileTheCostPerAcquisitionFallsByMoreThanATenth() throws InterruptedException {
        assertThat(warmUp(813.0, 663.0, 560.0, 520.0, 515.0, 400.0)).containsExactly(813.0, 663.0, 560.0, 520.0);
    }

    @Test
    void aRoundThatCostsMoreThanTheOneBeforeSettlesTheWarmUp() throws InterruptedException {
        assertThat(warmUp(300.0, 310.0, 100.0)).containsExactly(300.0, 310.0);
    }

    @Test
    void theRoundsStopAtTheLimitWhileTheCostStillFalls() throws InterruptedException {
        Double[] halving = new Double[20];
        for (int i = 0; i < halving.length; i++) {
            halving[i] = 1000.0 / (1 << i);
        }

        assertThat(warmUp(halving)).hasSize(10);
    }

    @Test
    void aRoundWithoutAcquisitionsEndsTheWarmUp() throws InterruptedException {
        assertThat(warmUp(800.0, Double.NaN, 100.0)).hasSize(2);
    }

    @Test
    void aLimitShorterThanOneRoundStillRunsOne() throws InterruptedException {
        List<Double> rounds = WarmUp.run(() -> 5.0, cost -> cost, ROUND, Duration.ofMillis(100));

        assertThat(rounds).containsExactly(5.0);
    }

    private static List<Double> warmUp(Double... costs) throws InterruptedException {
        Iterator<Double> next = List.of(costs).iterator();
        return WarmUp.run(next::next, cost -> cost, ROUND, LIMIT);
    }
}
