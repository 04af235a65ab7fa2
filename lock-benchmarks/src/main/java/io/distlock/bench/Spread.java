package io.distlock.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A figure over repeated trials: the median, and the range from the lowest to the highest trial.
 *
 * @param median the median trial's figure (the mean of the middle two for an even number of trials)
 * @param min the lowest trial's figure
 * @param max the highest trial's figure
 */
public record Spread(double median, double min, double max) {

    /**
     * Summarizes one figure of each trial.
     *
     * @param trials the trials
     * @param figure what to read from each
     * @param <T> the trial type
     * @return the spread
     * @throws IllegalArgumentException if there are no trials
     */
    public static <T> Spread of(List<T> trials, ToDoubleFunction<T> figure) {
        if (trials.isEmpty()) {
            throw new IllegalArgumentException("a spread needs at least one trial");
        }
        double[] values = trials.stream().mapToDouble(figure).sorted().toArray();
        int middle = values.length / 2;
        double median = values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
        return new Spread(median, values[0], values[values.length - 1]);
    }
}
