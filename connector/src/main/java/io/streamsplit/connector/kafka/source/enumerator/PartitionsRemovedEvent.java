package io.streamsplit.connector.kafka.source.enumerator;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.kafka.common.TopicPartition;

/**
 * Enumerator → reader: these partitions no longer exist (their topic was deleted or no longer
 * matches the subscription). The reader stops reading them and drops them from its state.
 */
@Internal
public final class PartitionsRemovedEvent implements SourceEvent {

    private static final long serialVersionUID = 1L;

    private final List<TopicPartition> partitions;

    public PartitionsRemovedEvent(List<TopicPartition> partitions) {
        this.partitions = List.copyOf(partitions);
    }

    public List<TopicPartition> partitions() {
        return partitions;
    }

    @Override
    public String toString() {
        return "PartitionsRemovedEvent" + partitions;
    }
}
