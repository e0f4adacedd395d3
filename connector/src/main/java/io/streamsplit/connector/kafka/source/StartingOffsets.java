package io.streamsplit.connector.kafka.source;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

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
@PublicEvolving
public final class StartingOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The kinds of starting position. */
    public enum Kind {
        EARLIEST,
        LATEST,
        COMMITTED,
        TIMESTAMP,
        SPECIFIC
    }

    private final Kind kind;
    private final @Nullable OffsetResetStrategy missingCommitStrategy;
    private final long timestampMillis;
    private final @Nullable Map<TopicPartition, Long> specificOffsets;
    private final @Nullable StartingOffsets fallback;

    private StartingOffsets(
            Kind kind,
            @Nullable OffsetResetStrategy missingCommitStrategy,
            long timestampMillis,
            @Nullable Map<TopicPartition, Long> specificOffsets,
            @Nullable StartingOffsets fallback) {
        this.kind = kind;
        this.missingCommitStrategy = missingCommitStrategy;
        this.timestampMillis = timestampMillis;
        this.specificOffsets = specificOffsets;
        this.fallback = fallback;
    }

    /**
     * Where a source starts when no starting offsets are set: with a consumer group ({@code groupId} not
     * {@code null}), the group's committed offsets, partitions without a commit from {@code whenMissing}, so
     * that a job started without its state continues where its group stopped, as a Kafka consumer does;
     * without a group, the earliest offsets.
     */
    public static StartingOffsets defaultFor(@Nullable String groupId, OffsetResetStrategy whenMissing) {
        return groupId != null ? committed(whenMissing) : earliest();
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
            throw new IllegalArgumentException(
                    "Starting timestamp is " + epochMillis + "; expected epoch milliseconds >= 0");
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
                throw new IllegalArgumentException(
                        "Specific starting offset for " + tp + " is " + offset + "; expected an offset >= 0");
            }
        });
        return new StartingOffsets(Kind.SPECIFIC, null, -1, new HashMap<>(offsets), fallback);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether resolving these offsets needs a consumer group id. */
    boolean needsGroupId() {
        return kind == Kind.COMMITTED || (fallback != null && fallback.needsGroupId());
    }

    /** For {@link Kind#COMMITTED}: what happens where the group has no commit; else {@code null}. */
    public @Nullable OffsetResetStrategy missingCommitStrategy() {
        return missingCommitStrategy;
    }

    /** For {@link Kind#TIMESTAMP}: epoch milliseconds; else -1. */
    public long timestampMillis() {
        return timestampMillis;
    }

    /** For {@link Kind#SPECIFIC}: the offsets given (unmodifiable); else an empty map. */
    public Map<TopicPartition, Long> specificOffsets() {
        return specificOffsets == null ? Map.of() : Collections.unmodifiableMap(specificOffsets);
    }

    /** For {@link Kind#SPECIFIC}: how partitions not in the map start; else {@code null}. */
    public @Nullable StartingOffsets fallback() {
        return fallback;
    }

    @Override
    public String toString() {
        switch (kind) {
            case COMMITTED:
                return "committed (reset to "
                        + Objects.requireNonNull(missingCommitStrategy).name().toLowerCase(Locale.ROOT)
                        + " when missing)";
            case TIMESTAMP:
                return "timestamp " + timestampMillis;
            case SPECIFIC:
                return "specific " + specificOffsets + " (others " + fallback + ")";
            default:
                return kind.name().toLowerCase(Locale.ROOT);
        }
    }
}
