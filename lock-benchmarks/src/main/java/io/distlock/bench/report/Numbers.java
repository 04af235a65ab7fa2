package io.distlock.bench.report;

import io.distlock.bench.Spread;
import java.time.Duration;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * How figures are written in the results and in the documentation's tables generated from them: few digits, thousands
 * separated, the trials' range in brackets.
 */
public final class Numbers {

    private Numbers() {}

    /**
     * A count or rate, whole, with thousands separated: {@code 6,198}.
     *
     * @param value the figure
     * @return its text
     */
    public static String count(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    /**
     * Microseconds: whole from 100 up, else to a tenth: {@code 237}, {@code 36.2}.
     *
     * @param value the figure
     * @return its text
     */
    public static String micros(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%,.0f" : "%.1f", value);
    }

    /**
     * Milliseconds: whole from 100 up, to a tenth from 10, else to a hundredth: {@code 4.88}.
     *
     * @param value the figure
     * @return its text
     */
    public static String millis(double value) {
        if (value >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, value >= 10 ? "%.1f" : "%.2f", value);
    }

    /**
     * A figure per acquisition, or an index, to a hundredth: {@code 5.01}.
     *
     * @param value the figure
     * @return its text
     */
    public static String perAcquisition(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    /**
     * A ratio, to a hundredth, with its {@code x}: {@code 1.61x}.
     *
     * @param value the figure
     * @return its text
     */
    public static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2fx", value);
    }

    /** The median, with the lowest and highest trial in brackets when they differ from it in writing. */
    static String spread(Spread spread, DoubleFunction<String> format) {
        String median = format.apply(spread.median());
        String min = format.apply(spread.min());
        String max = format.apply(spread.max());
        return min.equals(max) ? median : median + " (" + min + "–" + max + ")";
    }

    /** A duration in seconds, to a tenth where it has one: {@code 1.5 s}, {@code 2 s}. */
    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0)
                .replace(".0 s", " s");
    }
}
