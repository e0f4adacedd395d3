package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.kafka.connection.SpringKafkaSettings;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a YAML source starts and stops: {@code starting-offsets} (with {@code on-missing-commit} and Spring Kafka's
 * {@code auto-offset-reset} as fallbacks) and {@code stopping-offsets}, each with the timestamp or the
 * {@code <topic>-<partition>: <offset>} entries its kind needs, as the connector's {@link StartingOffsets} and
 * {@link StoppingOffsets}.
 */
final class SourceOffsets {

    private static final Logger LOG = LoggerFactory.getLogger(SourceOffsets.class);
    private static final String EXAMPLE = "orders-0: 42";

    private SourceOffsets() {}

    /**
     * Where source {@code p} starts without state ({@code starting-offsets}); unset, the group's commits with a
     * group id ({@code groupId}, the source's or Spring Kafka's), else earliest.
     */
    static StartingOffsets starting(
            KafkaSourceProperties source,
            @Nullable String groupId,
            @Nullable OffsetResetStrategy springReset,
            String p) {
        if (source.getStartingOffsets() == null) {
            return StartingOffsets.defaultFor(groupId, source.effectiveOnMissingCommit(springReset));
        }
        return switch (source.getStartingOffsets()) {
            case EARLIEST -> StartingOffsets.earliest();
            case LATEST -> StartingOffsets.latest();
            case COMMITTED -> StartingOffsets.committed(source.effectiveOnMissingCommit(springReset));
            case TIMESTAMP ->
                StartingOffsets.timestamp(required(
                                p + "starting-timestamp",
                                source.getStartingTimestamp(),
                                "starting-offsets is 'timestamp'")
                        .toEpochMilli());
            case SPECIFIC ->
                StartingOffsets.specific(
                        specific(
                                p + "starting-specific-offsets",
                                source.getStartingSpecificOffsets(),
                                "starting-offsets is 'specific'"),
                        StartingOffsets.earliest());
        };
    }

    /** Where source {@code p} stops ({@code stopping-offsets}), or {@code null}: unbounded. */
    static @Nullable StoppingOffsets stopping(KafkaSourceProperties source, String p) {
        StoppingOffsets.Kind stopping = source.getStoppingOffsets();
        if (stopping == null) {
            return null;
        }
        return switch (stopping) {
            case LATEST -> StoppingOffsets.latest();
            case TIMESTAMP ->
                StoppingOffsets.timestamp(required(
                                p + "stopping-timestamp",
                                source.getStoppingTimestamp(),
                                "stopping-offsets is 'timestamp'")
                        .toEpochMilli());
            case SPECIFIC ->
                StoppingOffsets.specific(specific(
                        p + "stopping-specific-offsets",
                        source.getStoppingSpecificOffsets(),
                        "stopping-offsets is 'specific'"));
        };
    }

    /** {@code spring.kafka.consumer.auto-offset-reset} as a reset strategy ({@code none}: fail), or {@code null}. */
    static @Nullable OffsetResetStrategy springReset(SpringKafkaSettings spring) {
        String reset = spring.autoOffsetReset();
        if (reset == null) {
            return null;
        }
        try {
            return OffsetResetStrategy.parse(reset);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(
                    "spring.kafka.consumer.auto-offset-reset",
                    reset,
                    "not a reset strategy: " + e.getMessage(),
                    "Use earliest, latest or none.");
        }
    }

    @SuppressWarnings("deprecation")
    static void warnIfDeprecatedResetStrategy(KafkaSourceProperties source, String p) {
        if (source.getOffsetResetStrategy() != null) {
            LOG.warn(
                    "{}offset-reset-strategy is deprecated: it set two things at once. Set {}on-offset-out-of-range"
                            + " (an offset gone from the log) and, with starting-offsets 'committed', {}on-missing-commit"
                            + " (a partition without a commit) instead; until then it stands for both.",
                    p,
                    p,
                    p);
        }
    }

    /**
     * The offsets {@code written} under {@code property}, which {@code because} needs; fails naming the entry that
     * is not a partition and an offset.
     */
    private static Map<TopicPartition, Long> specific(String property, Map<String, Long> written, String because) {
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
            TopicPartition named = KafkaSourceProperties.partitionOf(partition);
            if (named == null) {
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
            offsets.put(named, offset);
        });
        return offsets;
    }

    private static <V> V required(String property, @Nullable V value, String because) {
        if (value == null) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    null,
                    because + " but " + property + " is not set",
                    "Set " + property + " to an ISO-8601 instant (2026-01-31T00:00:00Z) or epoch milliseconds.");
        }
        return value;
    }
}
