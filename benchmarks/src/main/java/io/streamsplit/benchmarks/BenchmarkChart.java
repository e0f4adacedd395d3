package io.streamsplit.benchmarks;

import io.streamsplit.benchmarks.SourceMatrixBenchmark.Row;
import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import java.util.List;
import java.util.Locale;

/**
 * A plain SVG bar chart of the matrix: per shape, the median records/s of the tuned raw consumer,
 * the official source and StreamSplit (min–max whiskers), with the streamsplit/official ratio above.
 * No library: the file opens in any browser and renders on GitHub.
 */
final class BenchmarkChart {

    private static final List<Reader> SHOWN = List.of(Reader.RAW_TUNED, Reader.OFFICIAL, Reader.STREAMSPLIT);
    private static final List<String> COLORS = List.of("#9e9e9e", "#e07b39", "#2f6db5");
    private static final int BAR = 14;
    private static final int GROUP = SHOWN.size() * BAR + 22;
    private static final int HEIGHT = 260;
    private static final int TOP = 60;
    private static final int LEFT = 70;

    private BenchmarkChart() {}

    static String svg(List<Row> rows) {
        double max = rows.stream()
                .flatMap(row -> SHOWN.stream().map(r -> row.max().get(r)))
                .mapToDouble(d -> d)
                .max()
                .orElse(1);
        double scale = ChartScale.ceiling(max);
        int width = LEFT + rows.size() * GROUP + 20;
        int bottom = TOP + HEIGHT;
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                        + " font-size=\"10\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                width,
                bottom + 150));
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"18\" font-size=\"13\">Records/s per shape (median,"
                        + " min-max); number above: streamsplit/official</text>%n",
                LEFT));
        for (int i = 0; i <= 4; i++) {
            double value = scale * i / 4;
            int y = bottom - (int) (HEIGHT * i / 4.0);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                            + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LEFT,
                    width - 10,
                    y,
                    y,
                    LEFT - 4,
                    y + 3,
                    ChartScale.label(value)));
        }
        for (int g = 0; g < rows.size(); g++) {
            Row row = rows.get(g);
            int x0 = LEFT + g * GROUP + 8;
            for (int r = 0; r < SHOWN.size(); r++) {
                Reader reader = SHOWN.get(r);
                int x = x0 + r * BAR;
                int h = (int) (HEIGHT * row.median().get(reader) / scale);
                int yMin = bottom - (int) (HEIGHT * row.min().get(reader) / scale);
                int yMax = bottom - (int) (HEIGHT * row.max().get(reader) / scale);
                svg.append(String.format(
                        Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
                                + "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                        x,
                        bottom - h,
                        BAR - 2,
                        h,
                        COLORS.get(r),
                        x + BAR / 2 - 1,
                        x + BAR / 2 - 1,
                        yMin,
                        yMax));
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.2f</text>%n",
                    x0 + SHOWN.size() * BAR / 2,
                    TOP - 4 + (int) (HEIGHT * (1 - row.max().get(Reader.STREAMSPLIT) / scale)) - 4,
                    row.ssOverOfficial().median()));
            svg.append(String.format(
                    Locale.ROOT,
                    "<text transform=\"translate(%d,%d) rotate(60)\">%s</text>%n",
                    x0 + 4,
                    bottom + 10,
                    row.shape().shape().replace("partitions", "part.")));
        }
        for (int r = 0; r < SHOWN.size(); r++) {
            svg.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                            + "<text x=\"%d\" y=\"%d\">%s</text>%n",
                    LEFT + r * 120,
                    TOP - 16 - 10,
                    COLORS.get(r),
                    LEFT + r * 120 + 14,
                    TOP - 17,
                    SHOWN.get(r).name().toLowerCase(Locale.ROOT).replace('_', ' ')));
        }
        return svg.append("</svg>\n").toString();
    }
}
