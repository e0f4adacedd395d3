package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Turns the user's {@link StartingOffsets} and {@link StoppingOffsets} into concrete offsets by
 * asking the cluster through {@link KafkaMetadata}. Runs on the enumerator's worker thread, so
 * every split it creates carries a real offset; and in a reader, for splits restored from the
 * official source that still carry its offset markers ({@link #resolveMarkers}).
 */
@Internal
public final class KafkaOffsetsResolver {

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
                    switch (Objects.requireNonNull(offsets.missingCommitStrategy())) {
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
                    result.putAll(starting(Objects.requireNonNull(offsets.fallback()), missing, metadata, groupId));
                }
                return result;
            }
            default:
                throw new IllegalStateException("Unknown starting offsets kind " + offsets.kind());
        }
    }

    /**
     * Splits for the partitions that still exist: {@code initial} ones from {@code starting}, the others
     * (found after the initial discovery) from earliest; bounded by {@code stopping} when it is set.
     */
    static List<KafkaPartitionSplit> splits(
            Set<TopicPartition> partitions,
            Set<TopicPartition> initial,
            StartingOffsets starting,
            @Nullable StoppingOffsets stopping,
            KafkaMetadata metadata,
            String groupId)
            throws Exception {
        Map<TopicPartition, Long> starts;
        if (initial.size() == partitions.size() || initial.isEmpty()) { // all of one kind: the usual case
            starts = starting(initial.isEmpty() ? StartingOffsets.earliest() : starting, partitions, metadata, groupId);
        } else {
            PartitionIndex later = new PartitionIndex(partitions);
            later.removeAll(initial);
            starts = new HashMap<>(starting(starting, initial, metadata, groupId));
            starts.putAll(starting(StartingOffsets.earliest(), later, metadata, groupId));
        }
        OffsetsByTopic startsByTopic = new OffsetsByTopic(starts);
        OffsetsByTopic stops =
                new OffsetsByTopic(stopping != null ? stopping(stopping, partitions, metadata) : Map.of());
        List<KafkaPartitionSplit> splits = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            long start = startsByTopic.get(tp);
            if (start == OffsetsByTopic.NONE) {
                continue; // vanished between discovery and resolution; the next discovery decides
            }
            long stop = stops.get(tp);
            splits.add(split(
                    tp,
                    start,
                    stopping == null
                            ? KafkaPartitionSplit.NO_STOPPING_OFFSET
                            : stop == OffsetsByTopic.NONE ? start : stop));
        }
        return splits;
    }

    /** A split from {@code start} (never past {@code stop} when bounded) to {@code stop}. */
    private static KafkaPartitionSplit split(TopicPartition tp, long start, long stop) {
        return new KafkaPartitionSplit(tp, stop >= 0 ? Math.min(start, stop) : start, stop);
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

    /**
     * The same splits with the official source's offset markers replaced by offsets: earliest and
     * latest as the cluster has them now, committed as the consumer group has them (earliest
     * where the group has none: nothing is skipped). Splits without markers come back unchanged.
     */
    public static List<KafkaPartitionSplit> resolveMarkers(
            List<KafkaPartitionSplit> splits, KafkaMetadata metadata, String groupId) throws Exception {
        Map<Long, StartingOffsets> markers = Map.of(
                KafkaPartitionSplit.EARLIEST_OFFSET, StartingOffsets.earliest(),
                KafkaPartitionSplit.LATEST_OFFSET, StartingOffsets.latest(),
                KafkaPartitionSplit.COMMITTED_OFFSET, StartingOffsets.committed(OffsetResetStrategy.EARLIEST));
        Map<Long, Map<TopicPartition, Long>> starts = new HashMap<>();
        for (Map.Entry<Long, StartingOffsets> marker : markers.entrySet()) {
            List<TopicPartition> marked = splits.stream()
                    .filter(split -> split.startingOffset() == marker.getKey())
                    .map(KafkaPartitionSplit::topicPartition)
                    .toList();
            starts.put(
                    marker.getKey(),
                    marked.isEmpty() ? Map.of() : starting(marker.getValue(), marked, metadata, groupId));
        }
        List<TopicPartition> stopAtLatest = markedStops(splits, KafkaPartitionSplit.LATEST_OFFSET);
        List<TopicPartition> stopAtCommitted = markedStops(splits, KafkaPartitionSplit.COMMITTED_OFFSET);
        Map<TopicPartition, Long> stops = new HashMap<>();
        if (!stopAtLatest.isEmpty()) {
            stops.putAll(metadata.latestOffsets(stopAtLatest));
        }
        if (!stopAtCommitted.isEmpty()) {
            stops.putAll(metadata.committedOffsets(groupId, stopAtCommitted));
        }
        List<KafkaPartitionSplit> resolved = new ArrayList<>(splits.size());
        for (KafkaPartitionSplit split : splits) {
            if (!split.hasOffsetMarkers()) {
                resolved.add(split);
                continue;
            }
            TopicPartition tp = split.topicPartition();
            long start = split.startingOffset() >= 0
                    ? split.startingOffset()
                    : require(
                            starts.getOrDefault(split.startingOffset(), Map.of())
                                    .get(tp),
                            split,
                            "starting");
            long stop = split.stoppingOffset() == KafkaPartitionSplit.LATEST_OFFSET
                            || split.stoppingOffset() == KafkaPartitionSplit.COMMITTED_OFFSET
                    ? require(stops.get(tp), split, "stopping")
                    : split.stoppingOffset();
            resolved.add(split(tp, start, stop));
        }
        return resolved;
    }

    private static List<TopicPartition> markedStops(List<KafkaPartitionSplit> splits, long marker) {
        return splits.stream()
                .filter(split -> split.stoppingOffset() == marker)
                .map(KafkaPartitionSplit::topicPartition)
                .toList();
    }

    private static long require(@Nullable Long offset, KafkaPartitionSplit split, String which) {
        if (offset == null) {
            throw new IllegalStateException("No " + which + " offset for restored split " + split + ": the partition "
                    + split.topicPartition() + " does not exist (any more) or the consumer group has no commit for it."
                    + " Recreate the topic, or start without the savepoint.");
        }
        return offset;
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
