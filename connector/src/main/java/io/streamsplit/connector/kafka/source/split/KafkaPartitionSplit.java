package io.streamsplit.connector.kafka.source.split;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.kafka.common.TopicPartition;

/**
 * One Kafka partition as a unit of work for a source reader: where to start reading and, for a
 * bounded source, where to stop. Immutable; the reader tracks progress in {@link
 * KafkaPartitionSplitState}.
 *
 * <p>The split id is {@code topic-partition}, e.g. {@code orders-3}.
 *
 * <p>Splits restored from a savepoint of Flink's own {@code KafkaSource} may carry its offset
 * markers instead of offsets: {@link #EARLIEST_OFFSET}, {@link #LATEST_OFFSET} or
 * {@link #COMMITTED_OFFSET} as starting offset, {@link #LATEST_OFFSET} or {@link #COMMITTED_OFFSET}
 * as stopping offset. The reader resolves them against the cluster before reading ({@link
 * #hasOffsetMarkers()}); splits this source creates always carry offsets.
 */
@Internal
public final class KafkaPartitionSplit implements SourceSplit {

    /** Stopping offset of a split that never ends (unbounded source). */
    public static final long NO_STOPPING_OFFSET = Long.MIN_VALUE;

    /** Marker of the official source: the partition's end offset when the reader gets the split. */
    public static final long LATEST_OFFSET = -1;

    /** Marker of the official source: the partition's earliest offset. */
    public static final long EARLIEST_OFFSET = -2;

    /** Marker of the official source: the consumer group's committed offset. */
    public static final long COMMITTED_OFFSET = -3;

    private final TopicPartition topicPartition;
    private final long startingOffset;
    private final long stoppingOffset;

    /** An unbounded split starting at {@code startingOffset}. */
    public KafkaPartitionSplit(TopicPartition topicPartition, long startingOffset) {
        this(topicPartition, startingOffset, NO_STOPPING_OFFSET);
    }

    /**
     * A split reading {@code [startingOffset, stoppingOffset)}, or from {@code startingOffset}
     * on when {@code stoppingOffset} is {@link #NO_STOPPING_OFFSET}.
     */
    public KafkaPartitionSplit(TopicPartition topicPartition, long startingOffset, long stoppingOffset) {
        Objects.requireNonNull(topicPartition, "topicPartition");
        if (startingOffset < 0 && !isMarker(startingOffset)) {
            throw new IllegalArgumentException("Starting offset of split " + topicPartition + " is " + startingOffset
                    + "; a split starts at an offset >= 0 (or, restored from the official source, at one of its"
                    + " markers -1 latest, -2 earliest, -3 committed)");
        }
        if (stoppingOffset != NO_STOPPING_OFFSET && stoppingOffset < 0 && !isStoppingMarker(stoppingOffset)) {
            throw new IllegalArgumentException("Stopping offset of split " + topicPartition + " is " + stoppingOffset
                    + "; expected an offset >= 0, NO_STOPPING_OFFSET or a marker (-1 latest, -3 committed)");
        }
        this.topicPartition = topicPartition;
        this.startingOffset = startingOffset;
        this.stoppingOffset = stoppingOffset;
    }

    /** The id of the split for a partition: {@code topic-partition}. */
    public static String splitId(TopicPartition topicPartition) {
        return topicPartition.topic() + "-" + topicPartition.partition();
    }

    @Override
    public String splitId() {
        return splitId(topicPartition);
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public String topic() {
        return topicPartition.topic();
    }

    public int partition() {
        return topicPartition.partition();
    }

    /** The next offset to read. */
    public long startingOffset() {
        return startingOffset;
    }

    /** The offset at which reading stops (exclusive), or {@link #NO_STOPPING_OFFSET}. */
    public long stoppingOffset() {
        return stoppingOffset;
    }

    /** Whether the starting or stopping offset is a marker still to be resolved against the cluster. */
    public boolean hasOffsetMarkers() {
        return startingOffset < 0 || isStoppingMarker(stoppingOffset);
    }

    private static boolean isMarker(long offset) {
        return offset == LATEST_OFFSET || offset == EARLIEST_OFFSET || offset == COMMITTED_OFFSET;
    }

    private static boolean isStoppingMarker(long offset) {
        return offset == LATEST_OFFSET || offset == COMMITTED_OFFSET;
    }

    /** {@code 42}, or the marker's name: {@code earliest}, {@code latest}, {@code committed}. */
    public static String describe(long offset) {
        if (offset == LATEST_OFFSET) {
            return "latest";
        } else if (offset == EARLIEST_OFFSET) {
            return "earliest";
        } else if (offset == COMMITTED_OFFSET) {
            return "committed";
        }
        return String.valueOf(offset);
    }

    public boolean isBounded() {
        return stoppingOffset != NO_STOPPING_OFFSET;
    }

    /** The same partition and stopping offset, starting at {@code offset}. */
    public KafkaPartitionSplit withStartingOffset(long offset) {
        return new KafkaPartitionSplit(topicPartition, offset, stoppingOffset);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof KafkaPartitionSplit other)) {
            return false;
        }
        return startingOffset == other.startingOffset
                && stoppingOffset == other.stoppingOffset
                && topicPartition.equals(other.topicPartition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topicPartition, startingOffset, stoppingOffset);
    }

    @Override
    public String toString() {
        return "KafkaPartitionSplit{" + splitId() + ", start=" + describe(startingOffset)
                + (isBounded() ? ", stop=" + describe(stoppingOffset) : "") + '}';
    }
}
