package io.streamsplit.connector.kafka.source;

import java.io.Serializable;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import io.streamsplit.connector.kafka.source.enumerator.KafkaMetadata;
import org.apache.kafka.common.TopicPartition;

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
public final class StoppingOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The kinds of stopping position. */
    public enum Kind { LATEST, TIMESTAMP, SPECIFIC }

    private final Kind kind;
    private final long timestampMillis;
    private final Map<TopicPartition, Long> specificOffsets;

    private StoppingOffsets(Kind kind, long timestampMillis, Map<TopicPartition, Long> specificOffsets) {
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
            throw new IllegalArgumentException("Stopping timestamp is " + epochMillis
                    + "; expected epoch milliseconds >= 0");
        }
        return new StoppingOffsets(Kind.TIMESTAMP, epochMillis, null);
    }

    /** Exactly these offsets; partitions not in the map stop at their end when discovered. */
    public static StoppingOffsets specific(Map<TopicPartition, Long> offsets) {
        Objects.requireNonNull(offsets, "offsets");
        offsets.forEach((tp, offset) -> {
            if (offset == null || offset < 0) {
                throw new IllegalArgumentException("Specific stopping offset for " + tp + " is " + offset
                        + "; expected an offset >= 0");
            }
        });
        return new StoppingOffsets(Kind.SPECIFIC, -1, new HashMap<>(offsets));
    }

    public Kind kind() {
        return kind;
    }

    /** Resolves a concrete stopping offset for every partition. */
    public Map<TopicPartition, Long> resolve(Collection<TopicPartition> partitions, KafkaMetadata metadata)
            throws Exception {
        Map<TopicPartition, Long> result = new HashMap<>();
        if (kind == Kind.TIMESTAMP) {
            result.putAll(metadata.offsetsForTimestamp(partitions, timestampMillis));
        } else if (kind == Kind.SPECIFIC) {
            partitions.stream().filter(specificOffsets::containsKey)
                    .forEach(tp -> result.put(tp, specificOffsets.get(tp)));
        }
        Collection<TopicPartition> rest = partitions.stream().filter(tp -> !result.containsKey(tp))
                .collect(Collectors.toList());
        if (!rest.isEmpty()) {
            result.putAll(metadata.latestOffsets(rest));
        }
        return result;
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
