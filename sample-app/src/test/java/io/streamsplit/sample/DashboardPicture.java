package io.streamsplit.sample;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Draws panels of time series as one SVG: a grid of small line charts, each scaled to its own range. */
final class DashboardPicture {

    private static final int WIDTH = 360;
    private static final int HEIGHT = 170;
    private static final int COLUMNS = 3;
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};

    private DashboardPicture() {}

    /** {@code panels}: title → series → points {epoch seconds, value}. */
    static String draw(Map<String, List<List<double[]>>> panels) {
        int rows = (panels.size() + COLUMNS - 1) / COLUMNS;
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                        + " font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                WIDTH * COLUMNS,
                HEIGHT * rows));
        int index = 0;
        for (var panel : panels.entrySet()) {
            int x0 = (index % COLUMNS) * WIDTH + 40;
            int y0 = (index / COLUMNS) * HEIGHT + 22;
            int w = WIDTH - 55;
            int h = HEIGHT - 45;
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n"
                            + "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>%n",
                    x0 - 35,
                    y0 - 8,
                    escape(panel.getKey()),
                    x0,
                    y0,
                    w,
                    h));
            double minX = Double.MAX_VALUE, maxX = -Double.MAX_VALUE, minY = 0, maxY = -Double.MAX_VALUE;
            for (List<double[]> line : panel.getValue()) {
                for (double[] p : line) {
                    minX = Math.min(minX, p[0]);
                    maxX = Math.max(maxX, p[0]);
                    minY = Math.min(minY, p[1]);
                    maxY = Math.max(maxY, p[1]);
                }
            }
            if (maxY <= minY) {
                maxY = minY + 1;
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text><text x=\"%d\" y=\"%d\""
                            + " text-anchor=\"end\">%s</text>%n",
                    x0 - 3,
                    y0 + 9,
                    label(maxY),
                    x0 - 3,
                    y0 + h,
                    label(minY)));
            int colour = 0;
            for (List<double[]> line : panel.getValue()) {
                StringBuilder points = new StringBuilder();
                for (double[] p : line) {
                    double x = maxX > minX ? x0 + (p[0] - minX) / (maxX - minX) * w : x0;
                    double y = y0 + h - (p[1] - minY) / (maxY - minY) * h;
                    points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                }
                svg.append(String.format(
                        Locale.ROOT,
                        "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>%n",
                        COLOURS[colour++ % COLOURS.length],
                        points.toString().trim()));
            }
            index++;
        }
        return svg.append("</svg>\n").toString();
    }

    private static String label(double value) {
        return Math.abs(value) >= 1000
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.3g", value);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;");
    }
}
