package io.streamsplit.connector.kafka.source;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.state.OperatorStateHandle;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets a job restored from a checkpoint or savepoint would continue at: for every partition
 * that a StreamSplit source's readers held, the next offset they would read. Reads the checkpoint's
 * {@code _metadata} and the readers' split state; nothing is restored or changed.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.source.CheckpointedOffsets;
 *
 * Map<TopicPartition, Long> next = CheckpointedOffsets.read("file:///var/lib/app/checkpoints/<job id>/chk-42");
 * }</pre>
 *
 * <p>Splits still waiting in the enumerator (not yet handed to a reader) are not included.
 */
@PublicEvolving
public final class CheckpointedOffsets {

    /** The operator state Flink's {@code SourceOperator} keeps its readers' splits in. */
    private static final String READER_STATE = "SourceReaderState";

    private CheckpointedOffsets() {}

    /** Partition → next offset, for a checkpoint or savepoint directory (or its {@code _metadata} file). */
    public static Map<TopicPartition, Long> read(String checkpoint) throws IOException {
        Path path = new Path(checkpoint);
        Path metadata = path.getName().equals("_metadata") ? path : new Path(path, "_metadata");
        FileSystem fs = metadata.getFileSystem();
        CheckpointMetadata loaded;
        try (DataInputStream in = new DataInputStream(fs.open(metadata))) {
            loaded = Checkpoints.loadCheckpointMetadata(
                    in,
                    CheckpointedOffsets.class.getClassLoader(),
                    path.getParent().toString());
        }
        KafkaPartitionSplitSerializer serializer = new KafkaPartitionSplitSerializer();
        Map<TopicPartition, Long> offsets = new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                ? Integer.compare(a.partition(), b.partition())
                : a.topic().compareTo(b.topic()));
        for (OperatorState operator : loaded.getOperatorStates()) {
            for (OperatorSubtaskState subtask : operator.getStates()) {
                for (OperatorStateHandle handle : subtask.getManagedOperatorState()) {
                    OperatorStateHandle.StateMetaInfo splits =
                            handle.getStateNameToPartitionOffsets().get(READER_STATE);
                    if (splits != null && splits.getOffsets().length > 0) {
                        readSplits(handle, splits.getOffsets(), serializer, offsets);
                    }
                }
            }
        }
        return offsets;
    }

    private static void readSplits(
            OperatorStateHandle handle,
            long[] positions,
            KafkaPartitionSplitSerializer serializer,
            Map<TopicPartition, Long> into)
            throws IOException {
        try (FSDataInputStream in = handle.openInputStream()) {
            DataInputViewStreamWrapper view = new DataInputViewStreamWrapper(in);
            for (long position : positions) {
                in.seek(position);
                byte[] bytes = BytePrimitiveArraySerializer.INSTANCE.deserialize(view);
                KafkaPartitionSplit split;
                try {
                    split = SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
                } catch (IOException | RuntimeException notOurs) {
                    return; // another connector's source: its splits are not Kafka partitions of ours
                }
                into.put(split.topicPartition(), split.startingOffset());
            }
        }
    }
}
