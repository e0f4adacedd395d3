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
 */
@Internal
public final class KafkaPartitionSplit implements SourceSplit {

    /** Stopping offset of a split that never ends (unbounded source). */
    public static final long NO_STOPPING_OFFSET = Long.MIN_VALUE;

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
        if (startingOffset < 0) {
            throw new IllegalArgumentException("Starting offset of split " + topicPartition + " is " + startingOffset
                    + "; a split starts at a concrete offset >= 0");
        }
        if (stoppingOffset != NO_STOPPING_OFFSET && stoppingOffset < 0) {
            throw new IllegalArgumentException("Stopping offset of split " + topicPartition + " is " + stoppingOffset
                    + "; expected an offset >= 0 or NO_STOPPING_OFFSET");
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
        return "KafkaPartitionSplit{" + splitId() + ", start=" + startingOffset
                + (isBounded() ? ", stop=" + stoppingOffset : "") + '}';
    }
}
