package io.distlock.bench.report;

import io.distlock.bench.Measurement;
import io.distlock.bench.Spread;
import io.distlock.bench.Trial;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * One contender's figure over another's, trial by trial: each trial is paired with the other contender's trial of the
 * same number, which ran right next to it under the same load, so the ratio is steadier than either figure.
 */
final class PairedRatio {

    private PairedRatio() {}

    /**
     * The ratios of the paired trials.
     *
     * @param numerator the contender on top
     * @param denominator the contender below
     * @param figure what to read from each trial
     * @return the median ratio, with the lowest and highest pair's
     */
    static Spread of(Measurement numerator, Measurement denominator, ToDoubleFunction<Trial> figure) {
        List<Trial> top = numerator.trials();
        List<Trial> bottom = denominator.trials();
        return Spread.of(
                IntStream.range(0, Math.min(top.size(), bottom.size())).boxed().toList(),
                pair -> figure.applyAsDouble(top.get(pair)) / figure.applyAsDouble(bottom.get(pair)));
    }

    /**
     * A percentile of a trial's acquire times, in microseconds.
     *
     * @param percentile for example 50
     * @return the figure to pass to {@link #of}
     */
    static ToDoubleFunction<Trial> acquireMicros(double percentile) {
        return trial -> trial.result().acquireNanos().getValueAtPercentile(percentile) / 1e3;
    }
}
