package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.common.TopicPartition;

/**
 * Versioned serializer of {@link KafkaEnumeratorState}, used in the JobManager's checkpoints.
 *
 * <ul>
 *   <li>{@code VERSION_1}: initial-discovery-finished flag (boolean); assigned partitions as a
 *       count (int) followed by topic (modified UTF-8) and partition (int) each; pending splits as
 *       a count (int) followed by each split in {@link KafkaPartitionSplitSerializer#VERSION_1}
 *       layout.
 * </ul>
 *
 * <p>Partitions of one topic repeat the topic name; at 100k partitions over a few topics that is
 * still a few MB, measured in the benchmarks module.
 */
@Internal
public final class KafkaEnumeratorStateSerializer implements SimpleVersionedSerializer<KafkaEnumeratorState> {

    public static final int VERSION_1 = 1;
    public static final int CURRENT_VERSION = VERSION_1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(KafkaEnumeratorState state) throws IOException {
        DataOutputSerializer out =
                new DataOutputSerializer(64 + 32 * state.assignedPartitions().size());
        out.writeBoolean(state.initialDiscoveryFinished());
        out.writeInt(state.assignedPartitions().size());
        for (TopicPartition tp : state.assignedPartitions()) {
            out.writeUTF(tp.topic());
            out.writeInt(tp.partition());
        }
        out.writeInt(state.pendingSplits().size());
        for (KafkaPartitionSplit split : state.pendingSplits()) {
            KafkaPartitionSplitSerializer.write(split, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public KafkaEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown Kafka enumerator state version " + version + "; this release reads versions 1.."
                            + CURRENT_VERSION + ". Was the checkpoint written by a newer StreamSplit release?");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        boolean initialDiscoveryFinished = in.readBoolean();
        int assignedCount = readCount(in, "assigned partitions");
        List<TopicPartition> assigned = new ArrayList<>(assignedCount);
        for (int i = 0; i < assignedCount; i++) {
            assigned.add(new TopicPartition(in.readUTF(), in.readInt()));
        }
        int pendingCount = readCount(in, "pending splits");
        List<KafkaPartitionSplit> pending = new ArrayList<>(pendingCount);
        for (int i = 0; i < pendingCount; i++) {
            pending.add(KafkaPartitionSplitSerializer.read(KafkaPartitionSplitSerializer.VERSION_1, in));
        }
        if (in.available() > 0) {
            throw new IOException("Corrupt Kafka enumerator state: " + in.available() + " unexpected trailing bytes");
        }
        return new KafkaEnumeratorState(assigned, pending, initialDiscoveryFinished);
    }

    private static int readCount(DataInputDeserializer in, String what) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > in.available()) {
            throw new IOException("Corrupt Kafka enumerator state: " + count + " " + what + " announced but only "
                    + in.available() + " bytes left");
        }
        return count;
    }
}
