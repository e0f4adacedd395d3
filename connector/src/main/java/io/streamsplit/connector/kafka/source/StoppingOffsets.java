package io.streamsplit.connector.kafka.source;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Where a bounded source stops reading each partition (exclusive). Resolved once, when the
 * enumerator discovers the partitions; the job finishes when every split reached its stop.
 *
 * <pre>{@code
 * StoppingOffsets.latest();                       // everything in the topic right now
 * StoppingOffsets.timestamp(cutoff.toEpochMilli()); // records before the cutoff
 * StoppingOffsets.specific(Map.of(new TopicPartition("orders", 0), 1000L));
 * }</pre>
 */
@PublicEvolving
public final class StoppingOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The kinds of stopping position. */
    public enum Kind {
        LATEST,
        TIMESTAMP,
        SPECIFIC
    }

    private final Kind kind;
    private final long timestampMillis;
    private final @Nullable Map<TopicPartition, Long> specificOffsets;

    private StoppingOffsets(Kind kind, long timestampMillis, @Nullable Map<TopicPartition, Long> specificOffsets) {
        this.kind = kind;
        this.timestampMillis = timestampMillis;
        this.specificOffsets = specificOffsets;
    }

    /** The end of each partition when the source discovers it (the last stable offset for read_committed). */
    public static StoppingOffsets latest() {
        return new StoppingOffsets(Kind.LATEST, -1, null);
    }

    /** Before the first record whose timestamp is at or after {@code epochMillis}; else the end. */
    public static StoppingOffsets timestamp(long epochMillis) {
        if (epochMillis < 0) {
            throw new IllegalArgumentException(
                    "Stopping timestamp is " + epochMillis + "; expected epoch milliseconds >= 0");
        }
        return new StoppingOffsets(Kind.TIMESTAMP, epochMillis, null);
    }

    /** Exactly these offsets; partitions not in the map stop at their end when discovered. */
    public static StoppingOffsets specific(Map<TopicPartition, Long> offsets) {
        Objects.requireNonNull(offsets, "offsets");
        offsets.forEach((tp, offset) -> {
            if (offset == null || offset < 0) {
                throw new IllegalArgumentException(
                        "Specific stopping offset for " + tp + " is " + offset + "; expected an offset >= 0");
            }
        });
        return new StoppingOffsets(Kind.SPECIFIC, -1, new HashMap<>(offsets));
    }

    public Kind kind() {
        return kind;
    }

    /** For {@link Kind#TIMESTAMP}: epoch milliseconds; else -1. */
    public long timestampMillis() {
        return timestampMillis;
    }

    /** For {@link Kind#SPECIFIC}: the offsets given (unmodifiable); else an empty map. */
    public Map<TopicPartition, Long> specificOffsets() {
        return specificOffsets == null ? Map.of() : Collections.unmodifiableMap(specificOffsets);
    }

    @Override
    public String toString() {
        switch (kind) {
            case TIMESTAMP:
                return "timestamp " + timestampMillis;
            case SPECIFIC:
                return "specific " + specificOffsets;
            default:
                return "latest";
        }
    }
}
