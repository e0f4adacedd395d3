package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;

/**
 * Turns the user's {@link StartingOffsets} and {@link StoppingOffsets} into concrete offsets by
 * asking the cluster through {@link KafkaMetadata}. Runs on the enumerator's worker thread, so
 * every split it creates carries a real offset.
 */
@Internal
final class KafkaOffsetsResolver {

    private KafkaOffsetsResolver() {}

    /**
     * A concrete starting offset for every partition that still exists.
     *
     * @throws IllegalStateException if committed offsets are missing and the strategy is {@code FAIL}
     */
    static Map<TopicPartition, Long> starting(
            StartingOffsets offsets, Collection<TopicPartition> partitions, KafkaMetadata metadata, String groupId)
            throws Exception {
        switch (offsets.kind()) {
            case EARLIEST:
                return metadata.earliestOffsets(partitions);
            case LATEST:
                return metadata.latestOffsets(partitions);
            case TIMESTAMP: {
                Map<TopicPartition, Long> result =
                        new HashMap<>(metadata.offsetsForTimestamp(partitions, offsets.timestampMillis()));
                fillMissing(result, partitions, metadata.latestOffsets(missing(result, partitions)));
                return result;
            }
            case COMMITTED: {
                Map<TopicPartition, Long> result = new HashMap<>(metadata.committedOffsets(groupId, partitions));
                Set<TopicPartition> missing = missing(result, partitions);
                if (!missing.isEmpty()) {
                    switch (offsets.missingCommitStrategy()) {
                        case EARLIEST -> fillMissing(result, partitions, metadata.earliestOffsets(missing));
                        case LATEST -> fillMissing(result, partitions, metadata.latestOffsets(missing));
                        case FAIL ->
                            throw new IllegalStateException("Consumer group '" + groupId
                                    + "' has no committed offset for " + missing + " and the reset strategy is FAIL."
                                    + " Commit offsets for the group first, or start from earliest/latest for partitions"
                                    + " without a commit (committed(OffsetResetStrategy.EARLIEST)).");
                    }
                }
                return result;
            }
            case SPECIFIC: {
                Map<TopicPartition, Long> result = new HashMap<>();
                partitions.forEach(tp -> {
                    Long offset = offsets.specificOffsets().get(tp);
                    if (offset != null) {
                        result.put(tp, offset);
                    }
                });
                Set<TopicPartition> missing = missing(result, partitions);
                if (!missing.isEmpty()) {
                    result.putAll(starting(offsets.fallback(), missing, metadata, groupId));
                }
                return result;
            }
            default:
                throw new IllegalStateException("Unknown starting offsets kind " + offsets.kind());
        }
    }

    /** A concrete stopping offset (exclusive) for every partition. */
    static Map<TopicPartition, Long> stopping(
            StoppingOffsets offsets, Collection<TopicPartition> partitions, KafkaMetadata metadata) throws Exception {
        Map<TopicPartition, Long> result = new HashMap<>();
        if (offsets.kind() == StoppingOffsets.Kind.TIMESTAMP) {
            result.putAll(metadata.offsetsForTimestamp(partitions, offsets.timestampMillis()));
        } else if (offsets.kind() == StoppingOffsets.Kind.SPECIFIC) {
            partitions.stream()
                    .filter(offsets.specificOffsets()::containsKey)
                    .forEach(tp -> result.put(tp, offsets.specificOffsets().get(tp)));
        }
        Collection<TopicPartition> rest =
                partitions.stream().filter(tp -> !result.containsKey(tp)).collect(Collectors.toList());
        if (!rest.isEmpty()) {
            result.putAll(metadata.latestOffsets(rest));
        }
        return result;
    }

    private static Set<TopicPartition> missing(Map<TopicPartition, Long> resolved, Collection<TopicPartition> all) {
        return all.stream().filter(tp -> !resolved.containsKey(tp)).collect(Collectors.toSet());
    }

    private static void fillMissing(
            Map<TopicPartition, Long> result, Collection<TopicPartition> all, Map<TopicPartition, Long> source) {
        for (TopicPartition tp : all) {
            if (!result.containsKey(tp) && source.containsKey(tp)) {
                result.put(tp, source.get(tp));
            }
        }
    }
}
