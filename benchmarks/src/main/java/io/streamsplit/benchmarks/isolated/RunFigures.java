package io.streamsplit.benchmarks.isolated;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one reader JVM measured about itself, handed to the harness as one {@code RESULT k=v ...}
 * line. Times are milliseconds; {@code *AtMillis} count from the JVM's start, the stages of the
 * start-up breakdown are durations that add up to {@link #firstRecordAtMillis()}:
 * JVM start → main, main → {@code execute()} (logging; the job defined, its source built), MiniCluster start, job submission (until the enumerator starts), enumerator
 * start → first split assignment, and assignment → first record in the job's map.
 */
record RunFigures(
        double mainAtMillis,
        double setupMillis,
        double clusterMillis,
        double submitMillis,
        double assignMillis,
        double fetchMillis,
        double firstRecordAtMillis,
        double lastRecordAtMillis,
        long records,
        double cpuSeconds,
        double peakRssMb,
        double heapCommittedMb,
        double gcMillis) {

    static final String PREFIX = "RESULT ";

    /** Time from the start of the MiniCluster (a local {@code execute()}) to the first record. */
    double executeToFirstRecordMillis() {
        return clusterMillis + submitMillis + assignMillis + fetchMillis;
    }

    /** Records per second from JVM start to the last record: the run as the user waits for it. */
    double wholeRecordsPerSecond() {
        return records * 1000.0 / Math.max(1, lastRecordAtMillis);
    }

    /** Records per second from the first record to the last. */
    double steadyRecordsPerSecond() {
        return records * 1000.0 / Math.max(1, lastRecordAtMillis - firstRecordAtMillis);
    }

    /** "setup 480 + cluster 640 + submit 410 + assign 120 + fetch 380" */
    String breakdown() {
        return String.format(
                Locale.ROOT,
                "setup %.0f + cluster %.0f + submit %.0f + assign %.0f + fetch %.0f",
                setupMillis,
                clusterMillis,
                submitMillis,
                assignMillis,
                fetchMillis);
    }

    String toLine() {
        return String.format(
                Locale.ROOT,
                PREFIX
                        + "mainAt=%.1f setup=%.1f cluster=%.1f submit=%.1f assign=%.1f fetch=%.1f firstAt=%.1f lastAt=%.1f"
                        + " records=%d cpu=%.2f peakRss=%.1f heap=%.1f gc=%.1f",
                mainAtMillis,
                setupMillis,
                clusterMillis,
                submitMillis,
                assignMillis,
                fetchMillis,
                firstRecordAtMillis,
                lastRecordAtMillis,
                records,
                cpuSeconds,
                peakRssMb,
                heapCommittedMb,
                gcMillis);
    }

    static RunFigures parse(String line) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a result line: " + line);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : line.substring(PREFIX.length()).trim().split(" ")) {
            int eq = pair.indexOf('=');
            values.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return new RunFigures(
                number(values, "mainAt"),
                number(values, "setup"),
                number(values, "cluster"),
                number(values, "submit"),
                number(values, "assign"),
                number(values, "fetch"),
                number(values, "firstAt"),
                number(values, "lastAt"),
                Long.parseLong(values.get("records")),
                number(values, "cpu"),
                number(values, "peakRss"),
                number(values, "heap"),
                number(values, "gc"));
    }

    private static double number(Map<String, String> values, String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("result line without " + key + ": " + values);
        }
        return Double.parseDouble(value);
    }
}
