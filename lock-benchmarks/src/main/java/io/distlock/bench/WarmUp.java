package io.distlock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The warm-up of one contender in one scenario: rounds of the workload, one after the other, until the contender's
 * client CPU per acquisition stops falling, or the rounds reach their limit. A fixed warm-up of 2 s left the JIT
 * compiler busy through the trials on a 2-core machine: each worker JVM of scenario 4 compiled for 5 to 6 s in its
 * first 16 s, and client CPU per acquisition fell from trial to trial (scenario 1: 813 to 462 µs over five 1 s
 * trials), so the trials measured how fast each contender's code compiles, not how fast it locks.
 */
final class WarmUp {

    /** A round settles the warm-up when its cost per acquisition is at least this share of the round before. */
    static final double SETTLED = 0.9;

    private WarmUp() {}

    /**
     * One round of the warm-up workload.
     *
     * @param <R> the round's result
     */
    @FunctionalInterface
    interface Round<R> {
        /**
         * Runs the round.
         *
         * @return its result
         * @throws InterruptedException if interrupted while the workers run it
         */
        R run() throws InterruptedException;
    }

    /**
     * Runs rounds until one costs at least {@link #SETTLED} of the round before it, or no longer than {@code limit}
     * allows another round.
     *
     * @param round runs one round
     * @param cost a round's cost per acquisition; NaN or infinite (no acquisition) ends the warm-up
     * @param roundLength how long one round runs
     * @param limit how long the rounds may run together
     * @param <R> the round's result
     * @return every round's result, in order; at least one
     * @throws InterruptedException if interrupted while a round runs
     */
    static <R> List<R> run(Round<R> round, ToDoubleFunction<R> cost, Duration roundLength, Duration limit)
            throws InterruptedException {
        long maxRounds = Math.max(1, limit.toMillis() / Math.max(1, roundLength.toMillis()));
        List<R> rounds = new ArrayList<>();
        double previous = Double.NaN;
        while (rounds.size() < maxRounds) {
            R result = round.run();
            rounds.add(result);
            double current = cost.applyAsDouble(result);
            if (!Double.isFinite(current) || (!Double.isNaN(previous) && current >= SETTLED * previous)) {
                break;
            }
            previous = current;
        }
        return rounds;
    }
}
