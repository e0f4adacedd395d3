package io.streamsplit.connector.kafka.source.savepoint;

import org.apache.flink.annotation.PublicEvolving;
import org.jspecify.annotations.Nullable;

/**
 * Where one partition continues when a job restores the savepoint.
 *
 * @param topic the topic
 * @param partition the partition
 * @param offset the next offset to read, or {@code null} when {@code marker} says how it is found
 * @param marker {@code null} for an offset; else {@code earliest}, {@code latest} or {@code committed}
 *     (markers of the official source, resolved against the cluster when the reader gets the split),
 *     or {@code starting-offsets} (a partition never assigned: the source's configured starting offsets)
 * @param heldBy {@code reader N} (subtask N's state) or {@code enumerator} (not handed to a reader yet)
 */
@PublicEvolving
public record PartitionPosition(
        String topic,
        int partition,
        @Nullable Long offset,
        @Nullable String marker,
        String heldBy) {

    /** {@code orders-3@1200}, {@code orders-1@earliest}. */
    @Override
    public String toString() {
        return topic + "-" + partition + "@" + (offset != null ? offset : marker);
    }
}
