package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets of {@code starting-specific-offsets} and {@code stopping-specific-offsets}: one entry per partition,
 * written {@code <topic>-<partition>: <offset>} as Kafka names a partition ({@code orders-0: 42}).
 */
final class SpecificOffsets {

    private static final String EXAMPLE = "orders-0: 42";

    private SpecificOffsets() {}

    /**
     * The offsets {@code written} under {@code property}, which {@code because} needs; fails naming the entry that
     * is not a partition and an offset.
     */
    static Map<TopicPartition, Long> parse(String property, Map<String, Long> written, String because) {
        if (written.isEmpty()) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    null,
                    because + " but " + property + " lists no partition",
                    "List the offset of each partition to read from, as <topic>-<partition>: <offset> (e.g. " + EXAMPLE
                            + ").");
        }
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        written.forEach((partition, offset) -> {
            String entry = property + "." + partition;
            int dash = partition.lastIndexOf('-');
            int number = dash > 0 ? number(partition.substring(dash + 1)) : -1;
            if (number < 0) {
                throw new InvalidStreamSplitConfigurationException(
                        entry,
                        offset,
                        "'" + partition + "' is not a partition: Kafka names one <topic>-<partition>",
                        "Write the entry as <topic>-<partition>: <offset> (e.g. " + EXAMPLE + ").");
            }
            if (offset == null || offset < 0) {
                throw new InvalidStreamSplitConfigurationException(
                        entry,
                        offset,
                        "an offset is 0 or more",
                        "Write the offset of the first record to read (e.g. " + EXAMPLE + ").");
            }
            offsets.put(new TopicPartition(partition.substring(0, dash), number), offset);
        });
        return offsets;
    }

    private static int number(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
