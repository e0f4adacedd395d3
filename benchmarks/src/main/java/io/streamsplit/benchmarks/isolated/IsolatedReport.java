package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.RoundRatio;
import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark.ShapeResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** {@link IsolatedBenchmark}'s report: per shape medians and ratios, the table, the targets, a CSV. */
final class IsolatedReport {

    /** A ratio StreamSplit / official, and the target it has: at least ({@code atLeast}) or at most. */
    record Target(String name, ToDoubleFunction<RunFigures> metric, double target, boolean atLeast) {

        boolean met(RoundRatio ratio) {
            return atLeast ? ratio.median() >= target : ratio.median() <= target;
        }

        /** Even the round most in StreamSplit's favour misses the target. */
        boolean clearlyMissed(RoundRatio ratio) {
            return atLeast ? ratio.high() < target : ratio.low() > target;
        }
    }

    static final List<Target> TARGETS = List.of(
            new Target(
                    "throughput, whole run (JVM start -> last record) >= 1.10",
                    RunFigures::wholeRecordsPerSecond,
                    1.10,
                    true),
            new Target("throughput, first -> last record >= 1.10", RunFigures::steadyRecordsPerSecond, 1.10, true),
            new Target("peak RSS of the reader JVM <= 1.00", RunFigures::peakRssMb, 1.00, false),
            new Target("execute() -> first record <= 1.00", RunFigures::executeToFirstRecordMillis, 1.00, false));

    private IsolatedReport() {}

    static void printShape(ShapeResult result, PrintStream out) {
        for (Reader reader : result.runs().keySet()) {
            out.printf(
                    Locale.ROOT,
                    "median %-17s last record %,6.0f ms  execute->first %,5.0f ms (%s)  whole %,10.0f rec/s"
                            + "  first->last %,10.0f rec/s  cpu %5.1f s  peak RSS %,4.0f MB  heap %,4.0f MB  broker cpu %4.1f s%n",
                    reader,
                    result.median(reader, RunFigures::lastRecordAtMillis),
                    result.median(reader, RunFigures::executeToFirstRecordMillis),
                    medianBreakdown(result, reader),
                    result.median(reader, RunFigures::wholeRecordsPerSecond),
                    result.median(reader, RunFigures::steadyRecordsPerSecond),
                    result.median(reader, RunFigures::cpuSeconds),
                    result.median(reader, RunFigures::peakRssMb),
                    result.median(reader, RunFigures::heapCommittedMb),
                    io.streamsplit.benchmarks.BenchmarkSupport.median(
                            result.brokerCpu().get(reader)));
        }
        out.printf(
                Locale.ROOT,
                "streamsplit/official: whole %s, first->last %s, reader cpu %s, peak RSS %s, execute->first %s"
                        + " (median of rounds, lowest–highest round)%n",
                result.ratio(RunFigures::wholeRecordsPerSecond),
                result.ratio(RunFigures::steadyRecordsPerSecond),
                result.ratio(RunFigures::cpuSeconds),
                result.ratio(RunFigures::peakRssMb),
                result.ratio(RunFigures::executeToFirstRecordMillis));
        if (result.runs().containsKey(Reader.STREAMSPLIT_AGAIN)) {
            var metric = result.metric(RunFigures::steadyRecordsPerSecond);
            var rss = result.metric(RunFigures::peakRssMb);
            out.printf(
                    Locale.ROOT,
                    "A/B streamsplit-b/streamsplit: first->last %s, peak RSS %s%n",
                    RoundRatio.of(metric, Reader.STREAMSPLIT_AGAIN, Reader.STREAMSPLIT),
                    RoundRatio.of(rss, Reader.STREAMSPLIT_AGAIN, Reader.STREAMSPLIT));
        }
    }

    private static String medianBreakdown(ShapeResult result, Reader reader) {
        return String.format(
                Locale.ROOT,
                "setup %.0f + cluster %.0f + submit %.0f + assign %.0f + fetch %.0f",
                result.median(reader, RunFigures::setupMillis),
                result.median(reader, RunFigures::clusterMillis),
                result.median(reader, RunFigures::submitMillis),
                result.median(reader, RunFigures::assignMillis),
                result.median(reader, RunFigures::fetchMillis));
    }

    static void print(List<ShapeResult> results, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "%n%-34s %10s %10s %18s %18s %6s %6s %18s %6s %6s %18s%n",
                "shape",
                "official",
                "streamsplit",
                "whole ss/off",
                "first->last",
                "RSS of",
                "RSS ss",
                "RSS ss/off",
                "1st of",
                "1st ss",
                "1st ss/off");
        for (ShapeResult r : results) {
            out.printf(
                    Locale.ROOT,
                    "%-34s %,10.0f %,10.0f %18s %18s %6.0f %6.0f %18s %6.0f %6.0f %18s%n",
                    r.shape(),
                    r.median(Reader.OFFICIAL, RunFigures::wholeRecordsPerSecond),
                    r.median(Reader.STREAMSPLIT, RunFigures::wholeRecordsPerSecond),
                    r.ratio(RunFigures::wholeRecordsPerSecond),
                    r.ratio(RunFigures::steadyRecordsPerSecond),
                    r.median(Reader.OFFICIAL, RunFigures::peakRssMb),
                    r.median(Reader.STREAMSPLIT, RunFigures::peakRssMb),
                    r.ratio(RunFigures::peakRssMb),
                    r.median(Reader.OFFICIAL, RunFigures::executeToFirstRecordMillis),
                    r.median(Reader.STREAMSPLIT, RunFigures::executeToFirstRecordMillis),
                    r.ratio(RunFigures::executeToFirstRecordMillis));
        }
        out.println("(median records/s whole run, JVM start to last record; RSS in MB; 1st = execute() -> first"
                + " record in ms; ratios are medians of per-round ratios with the lowest and highest round)");
        out.println("targets (streamsplit/official, median of rounds; \"clearly\" = even the best round misses):");
        for (Target target : TARGETS) {
            List<String> missed = new ArrayList<>();
            for (ShapeResult r : results) {
                RoundRatio ratio = r.ratio(target.metric());
                if (!target.met(ratio)) {
                    missed.add(String.format(
                            Locale.ROOT,
                            "    %-34s %s%s",
                            r.shape(),
                            ratio,
                            target.clearlyMissed(ratio) ? " clearly" : ""));
                }
            }
            out.printf(
                    Locale.ROOT,
                    "  %-58s met on %d of %d shapes%s%n",
                    target.name(),
                    results.size() - missed.size(),
                    results.size(),
                    missed.isEmpty() ? "" : "; missed:");
            missed.forEach(out::println);
        }
    }

    /** One row per shape: medians of both readers and each ratio's median, lowest and highest round. */
    static void write(List<ShapeResult> results, Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder("shape");
        for (String reader : List.of("official", "streamsplit")) {
            csv.append(String.format(
                    Locale.ROOT,
                    ",%1$s_whole_rps,%1$s_steady_rps,%1$s_cpu_s,%1$s_peak_rss_mb,%1$s_execute_to_first_ms",
                    reader));
        }
        for (String ratio : List.of("whole", "steady", "cpu", "peak_rss", "execute_to_first")) {
            csv.append(String.format(Locale.ROOT, ",%1$s_ratio,%1$s_ratio_low,%1$s_ratio_high", ratio));
        }
        csv.append('\n');
        List<ToDoubleFunction<RunFigures>> metrics = List.of(
                RunFigures::wholeRecordsPerSecond,
                RunFigures::steadyRecordsPerSecond,
                RunFigures::cpuSeconds,
                RunFigures::peakRssMb,
                RunFigures::executeToFirstRecordMillis);
        for (ShapeResult r : results) {
            csv.append('"').append(r.shape()).append('"');
            for (Reader reader : List.of(Reader.OFFICIAL, Reader.STREAMSPLIT)) {
                for (ToDoubleFunction<RunFigures> metric : metrics) {
                    csv.append(String.format(Locale.ROOT, ",%.1f", r.median(reader, metric)));
                }
            }
            for (ToDoubleFunction<RunFigures> metric : metrics) {
                RoundRatio ratio = r.ratio(metric);
                csv.append(String.format(Locale.ROOT, ",%.3f,%.3f,%.3f", ratio.median(), ratio.low(), ratio.high()));
            }
            csv.append('\n');
        }
        Files.writeString(dir.resolve("isolated.csv"), csv);
    }
}
