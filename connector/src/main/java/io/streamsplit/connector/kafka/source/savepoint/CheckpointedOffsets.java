package io.streamsplit.connector.kafka.source.savepoint;

import java.io.IOException;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets a job restored from a checkpoint or savepoint would continue at: for every partition
 * that a Kafka source's readers held (StreamSplit's or the official {@code KafkaSource}), the next
 * offset they would read. Reads the checkpoint's {@code _metadata} and the readers' split state;
 * nothing is restored or changed.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.source.savepoint.CheckpointedOffsets;
 *
 * Map<TopicPartition, Long> next = CheckpointedOffsets.read("file:///var/lib/app/checkpoints/<job id>/chk-42");
 * }</pre>
 *
 * <p>Splits still waiting in the enumerator (not yet handed to a reader), and splits whose offset is
 * a marker of the official source (earliest, latest, committed), are not included: {@link
 * SavepointSources} shows those too.
 */
@PublicEvolving
public final class CheckpointedOffsets {

    private CheckpointedOffsets() {}

    /** Partition → next offset, for a checkpoint or savepoint directory (or its {@code _metadata} file). */
    public static Map<TopicPartition, Long> read(String checkpoint) throws IOException {
        Map<TopicPartition, Long> offsets =
                new TreeMap<>(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        for (KafkaSourceState source : SavepointSources.read(checkpoint)) {
            for (PartitionPosition position : source.partitions()) {
                if (position.offset() != null && position.heldBy().startsWith("reader")) {
                    offsets.put(new TopicPartition(position.topic(), position.partition()), position.offset());
                }
            }
        }
        return offsets;
    }
}
