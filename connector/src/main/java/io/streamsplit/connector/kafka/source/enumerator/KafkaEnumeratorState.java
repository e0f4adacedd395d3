package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;

/**
 * The enumerator's checkpoint: which partitions are already handed to readers (their progress
 * lives in the readers' own state), which splits wait for their reader, and whether the initial
 * discovery of the job finished (after it, newly found partitions start from earliest instead
 * of the configured starting offsets).
 *
 * <p>Restored from an older state of Flink's official {@code KafkaSource}, some partitions may be
 * known but not yet resolved: found by its initial discovery, never assigned, their offsets not
 * recorded. They start from the configured starting offsets, as the official source does.
 */
@Internal
public final class KafkaEnumeratorState {

    private final Set<TopicPartition> assignedPartitions;
    private final List<KafkaPartitionSplit> pendingSplits;
    private final boolean initialDiscoveryFinished;
    private final Set<TopicPartition> unresolvedPartitions;

    public KafkaEnumeratorState(
            Collection<TopicPartition> assignedPartitions,
            Collection<KafkaPartitionSplit> pendingSplits,
            boolean initialDiscoveryFinished) {
        this(assignedPartitions, pendingSplits, List.of(), initialDiscoveryFinished);
    }

    /** @param unresolvedPartitions partitions to start from the configured starting offsets when assigned */
    public KafkaEnumeratorState(
            Collection<TopicPartition> assignedPartitions,
            Collection<KafkaPartitionSplit> pendingSplits,
            Collection<TopicPartition> unresolvedPartitions,
            boolean initialDiscoveryFinished) {
        this.assignedPartitions = Collections.unmodifiableSet(new PartitionIndex(assignedPartitions));
        this.pendingSplits = List.copyOf(pendingSplits);
        this.unresolvedPartitions = Collections.unmodifiableSet(new PartitionIndex(unresolvedPartitions));
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

    /** Partitions known but without offsets yet; they start from the configured starting offsets. */
    public Set<TopicPartition> unresolvedPartitions() {
        return unresolvedPartitions;
    }

    public boolean initialDiscoveryFinished() {
        return initialDiscoveryFinished;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaEnumeratorState other
                && initialDiscoveryFinished == other.initialDiscoveryFinished
                && assignedPartitions.equals(other.assignedPartitions)
                && unresolvedPartitions.equals(other.unresolvedPartitions)
                && Set.copyOf(pendingSplits).equals(Set.copyOf(other.pendingSplits));
    }

    @Override
    public int hashCode() {
        return assignedPartitions.hashCode() * 31 + Set.copyOf(pendingSplits).hashCode();
    }

    @Override
    public String toString() {
        return "KafkaEnumeratorState{assigned=" + assignedPartitions.size() + " partitions, pending=" + pendingSplits
                + (unresolvedPartitions.isEmpty() ? "" : ", unresolved=" + unresolvedPartitions)
                + ", initialDiscoveryFinished=" + initialDiscoveryFinished + '}';
    }
}
