package io.streamsplit.benchmarks;

import java.util.Locale;

/** The axes of the benchmarks' plain SVG charts: a round top for the scale and short tick labels. */
public final class ChartScale {

    private ChartScale() {}

    /** The smallest of 1, 2, 2.5, 5 and 10 times a power of ten at or above {@code max} (1 for nothing to show). */
    public static double ceiling(double max) {
        if (!(max > 0)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= max) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    /** A tick label: 1.2M, 250k, 37, 2.5. */
    public static String label(double value) {
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.1fM", value / 1e6);
        }
        if (value >= 1e3) {
            return String.format(Locale.ROOT, value % 1e3 == 0 ? "%.0fk" : "%.1fk", value / 1e3);
        }
        return value == Math.rint(value)
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }
}
