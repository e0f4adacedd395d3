package io.streamsplit.connector.kafka.source.split;

import org.apache.flink.annotation.Internal;

/**
 * The mutable progress of a {@link KafkaPartitionSplit} inside a reader: the next offset to read.
 * Only the framework advances it (after a record has been handed to the emitter), so a user
 * emitter cannot corrupt checkpointed progress.
 */
@Internal
public final class KafkaPartitionSplitState {

    private final KafkaPartitionSplit split;
    private volatile long currentOffset;

    public KafkaPartitionSplitState(KafkaPartitionSplit split) {
        this.split = split;
        this.currentOffset = split.startingOffset();
    }

    public KafkaPartitionSplit split() {
        return split;
    }

    /** The next offset to read. */
    public long currentOffset() {
        return currentOffset;
    }

    public void setCurrentOffset(long nextOffset) {
        this.currentOffset = nextOffset;
    }

    /** The split as it would be restored now: same partition, starting at the current offset. */
    public KafkaPartitionSplit toSplit() {
        return split.withStartingOffset(currentOffset);
    }
}
