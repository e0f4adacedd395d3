package io.streamsplit.connector.kafka.source;

import java.io.Serializable;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import io.streamsplit.connector.kafka.source.enumerator.KafkaMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a new job starts reading each partition. Resolved to concrete offsets by the enumerator
 * when it first discovers a partition, so every split carries a real offset.
 *
 * <pre>{@code
 * StartingOffsets.earliest();
 * StartingOffsets.committed(OffsetResetStrategy.EARLIEST); // group's commit, else earliest
 * StartingOffsets.timestamp(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
 * StartingOffsets.specific(Map.of(new TopicPartition("orders", 0), 42L), StartingOffsets.earliest());
 * }</pre>
 *
 * <p>Only the first discovery of a new job uses these settings. A job restored from a checkpoint
 * continues from the checkpointed offsets, and partitions that appear while a job runs are read
 * from their earliest offset, so nothing written to them is missed.
 */
public final class StartingOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The kinds of starting position. */
    public enum Kind { EARLIEST, LATEST, COMMITTED, TIMESTAMP, SPECIFIC }

    private final Kind kind;
    private final OffsetResetStrategy missingCommitStrategy;
    private final long timestampMillis;
    private final Map<TopicPartition, Long> specificOffsets;
    private final StartingOffsets fallback;

    private StartingOffsets(Kind kind, OffsetResetStrategy missingCommitStrategy, long timestampMillis,
            Map<TopicPartition, Long> specificOffsets, StartingOffsets fallback) {
        this.kind = kind;
        this.missingCommitStrategy = missingCommitStrategy;
        this.timestampMillis = timestampMillis;
        this.specificOffsets = specificOffsets;
        this.fallback = fallback;
    }

    /** The earliest offset still in the log. */
    public static StartingOffsets earliest() {
        return new StartingOffsets(Kind.EARLIEST, null, -1, null, null);
    }

    /** The end of the log when the partition is first discovered: only new records are read. */
    public static StartingOffsets latest() {
        return new StartingOffsets(Kind.LATEST, null, -1, null, null);
    }

    /**
     * The consumer group's committed offset; where the group has none, {@code whenMissing} decides
     * (earliest, latest, or fail naming the partitions). Needs a group id.
     */
    public static StartingOffsets committed(OffsetResetStrategy whenMissing) {
        return new StartingOffsets(Kind.COMMITTED, Objects.requireNonNull(whenMissing, "whenMissing"), -1, null, null);
    }

    /**
     * The first record whose timestamp is at or after {@code epochMillis}; partitions with no such
     * record start at their end.
     */
    public static StartingOffsets timestamp(long epochMillis) {
        if (epochMillis < 0) {
            throw new IllegalArgumentException("Starting timestamp is " + epochMillis
                    + "; expected epoch milliseconds >= 0");
        }
        return new StartingOffsets(Kind.TIMESTAMP, null, epochMillis, null, null);
    }

    /** Exactly these offsets; partitions not in the map start as {@code fallback} says. */
    public static StartingOffsets specific(Map<TopicPartition, Long> offsets, StartingOffsets fallback) {
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(fallback, "fallback");
        if (fallback.kind == Kind.SPECIFIC) {
            throw new IllegalArgumentException("The fallback of specific starting offsets cannot itself be specific");
        }
        offsets.forEach((tp, offset) -> {
            if (offset == null || offset < 0) {
                throw new IllegalArgumentException("Specific starting offset for " + tp + " is " + offset
                        + "; expected an offset >= 0");
            }
        });
        return new StartingOffsets(Kind.SPECIFIC, null, -1, new HashMap<>(offsets), fallback);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether resolving these offsets needs a consumer group id. */
    public boolean needsGroupId() {
        return kind == Kind.COMMITTED || (fallback != null && fallback.needsGroupId());
    }

    /**
     * Resolves a concrete starting offset for every partition.
     *
     * @throws IllegalStateException if committed offsets are missing and the strategy is {@code FAIL}
     */
    public Map<TopicPartition, Long> resolve(Collection<TopicPartition> partitions, KafkaMetadata metadata,
            String groupId) throws Exception {
        switch (kind) {
            case EARLIEST:
                return metadata.earliestOffsets(partitions);
            case LATEST:
                return metadata.latestOffsets(partitions);
            case TIMESTAMP: {
                Map<TopicPartition, Long> result = new HashMap<>(metadata.offsetsForTimestamp(partitions, timestampMillis));
                fillMissing(result, partitions, metadata.latestOffsets(missing(result, partitions)));
                return result;
            }
            case COMMITTED: {
                Map<TopicPartition, Long> result = new HashMap<>(metadata.committedOffsets(groupId, partitions));
                Set<TopicPartition> missing = missing(result, partitions);
                if (!missing.isEmpty()) {
                    switch (missingCommitStrategy) {
                        case EARLIEST -> fillMissing(result, partitions, metadata.earliestOffsets(missing));
                        case LATEST -> fillMissing(result, partitions, metadata.latestOffsets(missing));
                        case FAIL -> throw new IllegalStateException("Consumer group '" + groupId
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
                    Long offset = specificOffsets.get(tp);
                    if (offset != null) {
                        result.put(tp, offset);
                    }
                });
                Set<TopicPartition> missing = missing(result, partitions);
                if (!missing.isEmpty()) {
                    result.putAll(fallback.resolve(missing, metadata, groupId));
                }
                return result;
            }
            default:
                throw new IllegalStateException("Unknown starting offsets kind " + kind);
        }
    }

    private static Set<TopicPartition> missing(Map<TopicPartition, Long> resolved, Collection<TopicPartition> all) {
        return all.stream().filter(tp -> !resolved.containsKey(tp)).collect(Collectors.toSet());
    }

    private static void fillMissing(Map<TopicPartition, Long> result, Collection<TopicPartition> all,
            Map<TopicPartition, Long> source) {
        for (TopicPartition tp : all) {
            if (!result.containsKey(tp) && source.containsKey(tp)) {
                result.put(tp, source.get(tp));
            }
        }
    }

    @Override
    public String toString() {
        switch (kind) {
            case COMMITTED:
                return "committed (reset to " + missingCommitStrategy.name().toLowerCase() + " when missing)";
            case TIMESTAMP:
                return "timestamp " + timestampMillis;
            case SPECIFIC:
                return "specific " + specificOffsets + " (others " + fallback + ")";
            default:
                return kind.name().toLowerCase();
        }
    }
}
