package io.streamsplit.benchmarks;

import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ratio of two readers' records/s, taken per round (each round's pair of runs) and summarized
 * as the median with the lowest and highest round. The range is what tells a real difference from
 * this machine's noise: with 5 rounds, the median of the true ratio lies between the lowest and
 * highest round with 94 % confidence (1 − 2 · 0.5⁵, no assumption about the distribution), so a
 * shape whose whole range is below a target is below it, and one whose range spans it is not
 * decided by this run.
 */
public record RoundRatio(double median, double low, double high, int rounds) {

    /** a/b per round over the runs both readers have. */
    public static RoundRatio of(Map<Reader, List<Double>> values, Reader a, Reader b) {
        return of(values.get(a), values.get(b));
    }

    /** as[i]/bs[i] per round over the rounds both lists have. */
    public static RoundRatio of(List<Double> as, List<Double> bs) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(as.size(), bs.size()); i++) {
            ratios.add(as.get(i) / bs.get(i));
        }
        return new RoundRatio(
                BenchmarkSupport.median(ratios),
                ratios.stream().mapToDouble(d -> d).min().orElse(Double.NaN),
                ratios.stream().mapToDouble(d -> d).max().orElse(Double.NaN),
                ratios.size());
    }

    /** The whole range is below {@code target}: below it beyond this run's noise. */
    public boolean clearlyBelow(double target) {
        return high < target;
    }

    /** "1.08 (0.97–1.21)" */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", median, low, high);
    }
}
