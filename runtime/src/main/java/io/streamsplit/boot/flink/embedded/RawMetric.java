package io.streamsplit.boot.flink.embedded;

import org.jspecify.annotations.Nullable;

/**
 * One metric value of a Kafka source operator (or a sink writer's freshness), however it was read (in-process reporter or Flink
 * REST). {@code operator} is the operator name with Flink's query-service character filter applied
 * ({@code "Source: orders"} → {@code "Source__orders"}), so both ways of reading compare equal.
 *
 * @param operator the filtered operator name
 * @param subtask the reader subtask, or -1 for the split enumerator (JobManager)
 * @param topic the partition's topic (filtered), or {@code null} for reader-wide metrics
 * @param partition the partition, or -1 for reader-wide metrics
 * @param name the metric name, e.g. {@code currentOffset}
 * @param value the value (a number, or a string for {@code pendingPartitions})
 */
public record RawMetric(
        String operator, int subtask, @Nullable String topic, int partition, String name, Object value) {

    /** Flink's metric query service replaces these characters with '_' in names and scopes. */
    public static String filter(String name) {
        return name.replace(' ', '_').replace('.', '_').replace(':', '_').replace(',', '_');
    }

    /**
     * Whether this metric belongs to source {@code sourceName}. Flink names a JobManager operator
     * after its whole chain ({@code Source: orders -> Map -> ...}, cut at 80 characters).
     */
    public boolean isOf(String sourceName) {
        String source = filter("Source: " + sourceName);
        return operator.equals(source) || operator.startsWith(source + "_->_");
    }

    /** The value as a number, or -1 when it is none. */
    public double asDouble() {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        try {
            return Double.parseDouble(String.valueOf(value));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The value as a whole number, or -1 when it is none. */
    public long asLong() {
        return value instanceof Number number ? number.longValue() : (long) asDouble();
    }
}
