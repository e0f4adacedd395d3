package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.pipeline.SoakBenchmark.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * A soak run's verdicts: whether RSS, heap after a full GC and checkpoint size stay flat (the mean of the
 * second half of the run within 5 % of the mean of the early-steady window, minutes n/6–n/3: 10–20 of an
 * hour), ERROR lines, WARN lines per half, and every payment answered exactly once. {@link #check()} fails
 * the run on a lost or duplicated payment or an ERROR line; flatness is reported, not enforced (a soak's
 * verdict is read, with the plot, by a person).
 */
final class SoakReport {

    /** How far the second half's mean may stray from the early-steady window's. */
    static final double FLAT = 0.05;

    private final List<Row> rows;
    private final SoakLog logs;
    private final long sent;
    private final long answered;
    private final long duplicates;
    private final int rate;

    SoakReport(List<Row> rows, SoakLog logs, long sent, long answered, long duplicates, int rate) {
        this.rows = rows;
        this.logs = logs;
        this.sent = sent;
        this.answered = answered;
        this.duplicates = duplicates;
        this.rate = rate;
    }

    String csv() {
        StringBuilder csv = new StringBuilder(Row.HEADER).append('\n');
        rows.forEach(row -> csv.append(row.csv()).append('\n'));
        return csv.toString();
    }

    String markdown() {
        int n = rows.size();
        StringBuilder md = new StringBuilder();
        md.append(String.format(
                Locale.ROOT,
                "%d minutes at %,d payments/s: %,d sent, %,d answered, %,d lost, %,d duplicated%n%n",
                n,
                rate,
                sent,
                answered,
                sent - answered,
                duplicates));
        md.append("| measure | minutes ")
                .append(early())
                .append(" | minutes ")
                .append(late())
                .append(" | ratio | flat (±5 %) |\n| --- | --- | --- | --- | --- |\n");
        md.append(flatRow("RSS (MB)", Row::rssMb));
        md.append(flatRow("heap after full GC (MB)", Row::heapAfterGcMb));
        md.append(flatRow("checkpoint size (bytes)", r -> r.checkpointBytes()));
        md.append(flatRow("threads", r -> r.threads()));
        md.append(flatRow("open files", r -> r.openFiles()));
        md.append(flatRow("checkpoint duration p50 (ms)", Row::checkpointP50Ms));
        md.append(flatRow("lag (records)", r -> r.lag()));
        md.append(flatRow("latency p99 (ms)", Row::latencyP99Ms));
        md.append(String.format(
                Locale.ROOT,
                "%nWARN lines: %d in the first half, %d in the second; ERROR lines: %d%n",
                sum(1, n / 2, Row::warnings),
                sum(n / 2 + 1, n, Row::warnings),
                sum(1, n, Row::errors)));
        appendMessages(md, "WARN", logs.warnings());
        appendMessages(md, "ERROR", logs.errors());
        return md.toString();
    }

    /** Fails on a lost or duplicated payment or an ERROR line. */
    void check() {
        List<String> problems = new ArrayList<>();
        if (answered != sent) {
            problems.add((sent - answered) + " of " + sent + " payments never answered");
        }
        if (duplicates > 0) {
            problems.add(duplicates + " payments answered twice");
        }
        int errors = sum(1, rows.size(), Row::errors);
        if (errors > 0) {
            problems.add(errors + " ERROR lines: " + logs.errors().keySet());
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The soak run failed: " + String.join("; ", problems));
        }
    }

    /** Minutes n/6–n/3 (10–20 of 60): after start-up and warm-up, before anything could have piled up. */
    private String early() {
        return from() + "–" + to();
    }

    private String late() {
        return (rows.size() / 2 + 1) + "–" + rows.size();
    }

    private int from() {
        return Math.max(1, rows.size() / 6);
    }

    private int to() {
        return Math.max(from(), rows.size() / 3);
    }

    private String flatRow(String measure, ToDoubleFunction<Row> f) {
        double early = SoakBenchmark.mean(rows, from(), to(), f);
        double late = SoakBenchmark.mean(rows, rows.size() / 2 + 1, rows.size(), f);
        double ratio = late / early;
        return String.format(
                Locale.ROOT,
                "| %s | %.1f | %.1f | %.3f | %s |%n",
                measure,
                early,
                late,
                ratio,
                Double.isNaN(ratio) ? "n/a" : Math.abs(ratio - 1) <= FLAT ? "yes" : "no");
    }

    private int sum(int from, int to, java.util.function.ToIntFunction<Row> f) {
        return rows.stream()
                .filter(r -> r.minute() >= from && r.minute() <= to)
                .mapToInt(f)
                .sum();
    }

    private static void appendMessages(StringBuilder md, String level, Map<String, Integer> messages) {
        messages.forEach((message, count) ->
                md.append(String.format(Locale.ROOT, "- %s ×%d: `%s`%n", level, count, message.replace('`', '\''))));
    }
}
