package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.ChartScale;
import io.streamsplit.benchmarks.pipeline.SoakBenchmark.Row;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The minute series of a soak run as a plain SVG (no library; renders in a browser and on GitHub): four
 * panels over the minutes — memory (RSS, heap after a full GC), checkpoints (duration p50 and max, size),
 * latency and lag, threads and open files.
 */
public final class SoakChart {

    private static final int WIDTH = 760;
    private static final int PANEL = 150;
    private static final int GAP = 50;
    private static final int LEFT = 60;
    private static final int RIGHT = 150;

    /** One line in a panel. */
    private record Series(String name, String color, ToDoubleFunction<Row> value) {}

    private SoakChart() {}

    /**
     * Draws {@code soak.svg} again from a run's {@code soak.csv} (args: the CSV, the rate it ran at):
     * {@code mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.SoakChart
     * -Dexec.args="docs/benchmarks/soak/soak.csv 5000"}.
     */
    public static void main(String[] args) throws java.io.IOException {
        java.nio.file.Path csv = java.nio.file.Path.of(args[0]);
        List<Row> rows = java.nio.file.Files.readAllLines(csv).stream()
                .skip(1)
                .filter(line -> !line.isBlank())
                .map(SoakChart::row)
                .toList();
        java.nio.file.Files.writeString(csv.resolveSibling("soak.svg"), svg(rows, Integer.parseInt(args[1])));
    }

    /** A line of {@code soak.csv} ({@link Row#HEADER}). */
    static Row row(String line) {
        String[] f = line.split(",");
        return new Row(
                Integer.parseInt(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Double.parseDouble(f[3]),
                Double.parseDouble(f[4]),
                Integer.parseInt(f[5]),
                Integer.parseInt(f[6]),
                Integer.parseInt(f[7]),
                Double.parseDouble(f[8]),
                Double.parseDouble(f[9]),
                Long.parseLong(f[10]),
                Long.parseLong(f[11]),
                Double.parseDouble(f[12]),
                Double.parseDouble(f[13]),
                Integer.parseInt(f[14]),
                Integer.parseInt(f[15]));
    }

    static String svg(List<Row> rows, int rate) {
        List<List<Series>> panels = List.of(
                List.of(
                        new Series("RSS (MB)", "#2f6db5", Row::rssMb),
                        new Series("heap after full GC (MB)", "#e07b39", Row::heapAfterGcMb)),
                List.of(
                        new Series("checkpoint p50 (ms)", "#2f6db5", Row::checkpointP50Ms),
                        new Series("checkpoint max (ms)", "#9e9e9e", Row::checkpointMaxMs),
                        new Series("checkpoint size (KB)", "#e07b39", r -> r.checkpointBytes() / 1024.0)),
                List.of(
                        new Series("latency p50 (ms)", "#2f6db5", Row::latencyP50Ms),
                        new Series("latency p99 (ms)", "#e07b39", Row::latencyP99Ms),
                        new Series("lag (records/10)", "#9e9e9e", r -> r.lag() / 10.0)),
                List.of(
                        new Series("threads", "#2f6db5", r -> r.threads()),
                        new Series("open files", "#e07b39", r -> r.openFiles())));
        int height = 40 + panels.size() * (PANEL + GAP);
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                        + " font-size=\"10\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n"
                        + "<text x=\"%d\" y=\"18\" font-size=\"13\">Soak: the starter's running totals, %,d payments/s,"
                        + " exactly-once, 1 s checkpoints; per minute (minute 1, start-up, clipped)</text>%n",
                WIDTH,
                height,
                LEFT,
                rate));
        for (int i = 0; i < panels.size(); i++) {
            panel(svg, rows, panels.get(i), 40 + i * (PANEL + GAP));
        }
        return svg.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder svg, List<Row> rows, List<Series> series, int top) {
        double max = 0;
        for (Series s : series) {
            // the start-up minute (the backlog of the JVM's start) is drawn clipped, not setting the scale
            max = Math.max(
                    max,
                    rows.stream()
                            .filter(row -> row.minute() > 1 || rows.size() < 3)
                            .mapToDouble(s.value())
                            .filter(Double::isFinite)
                            .max()
                            .orElse(0));
        }
        double scale = ChartScale.ceiling(max);
        int plotWidth = WIDTH - LEFT - RIGHT;
        int bottom = top + PANEL;
        for (int g = 0; g <= 4; g++) {
            int y = bottom - PANEL * g / 4;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                            + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LEFT,
                    LEFT + plotWidth,
                    y,
                    y,
                    LEFT - 4,
                    y + 3,
                    ChartScale.label(scale * g / 4)));
        }
        int minutes = Math.max(1, rows.size());
        for (int m = 0; m <= minutes; m += Math.max(1, minutes / 6)) {
            int x = LEFT + plotWidth * m / minutes;
            svg.append(String.format(
                    Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d min</text>%n", x, bottom + 14, m));
        }
        for (int s = 0; s < series.size(); s++) {
            Series line = series.get(s);
            StringBuilder points = new StringBuilder();
            for (Row row : rows) {
                double v = line.value().applyAsDouble(row);
                if (Double.isFinite(v) && v >= 0) {
                    points.append(String.format(
                            Locale.ROOT,
                            "%d,%d ",
                            LEFT + plotWidth * row.minute() / minutes,
                            bottom - (int) Math.round(PANEL * Math.min(v, scale) / scale)));
                }
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>%n"
                            + "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"3\" fill=\"%s\"/>"
                            + "<text x=\"%d\" y=\"%d\">%s</text>%n",
                    line.color(),
                    points.toString().trim(),
                    LEFT + plotWidth + 10,
                    top + 10 + s * 16,
                    line.color(),
                    LEFT + plotWidth + 24,
                    top + 14 + s * 16,
                    line.name()));
        }
    }
}
