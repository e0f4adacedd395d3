package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;

/**
 * The enumerator's checkpoint: which partitions are already handed to readers (their progress
 * lives in the readers' own state), which splits wait for their reader, and whether the initial
 * discovery of the job finished (after it, newly found partitions start from earliest instead
 * of the configured starting offsets).
 */
@Internal
public final class KafkaEnumeratorState {

    private final Set<TopicPartition> assignedPartitions;
    private final List<KafkaPartitionSplit> pendingSplits;
    private final boolean initialDiscoveryFinished;

    public KafkaEnumeratorState(
            Collection<TopicPartition> assignedPartitions,
            Collection<KafkaPartitionSplit> pendingSplits,
            boolean initialDiscoveryFinished) {
        this.assignedPartitions = Collections.unmodifiableSet(new LinkedHashSet<>(assignedPartitions));
        this.pendingSplits = List.copyOf(pendingSplits);
        this.initialDiscoveryFinished = initialDiscoveryFinished;
    }

    /** State of a job that has not discovered anything yet. */
    public static KafkaEnumeratorState empty() {
        return new KafkaEnumeratorState(List.of(), List.of(), false);
    }

    public Set<TopicPartition> assignedPartitions() {
        return assignedPartitions;
    }

    public List<KafkaPartitionSplit> pendingSplits() {
        return pendingSplits;
    }

    public boolean initialDiscoveryFinished() {
        return initialDiscoveryFinished;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaEnumeratorState other
                && initialDiscoveryFinished == other.initialDiscoveryFinished
                && assignedPartitions.equals(other.assignedPartitions)
                && Set.copyOf(pendingSplits).equals(Set.copyOf(other.pendingSplits));
    }

    @Override
    public int hashCode() {
        return assignedPartitions.hashCode() * 31 + Set.copyOf(pendingSplits).hashCode();
    }

    @Override
    public String toString() {
        return "KafkaEnumeratorState{assigned=" + assignedPartitions.size() + " partitions, pending=" + pendingSplits
                + ", initialDiscoveryFinished=" + initialDiscoveryFinished + '}';
    }
}
