package io.streamsplit.connector.kafka.source.split;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.kafka.common.TopicPartition;

/**
 * Versioned serializer of {@link KafkaPartitionSplit}, used in reader checkpoints.
 *
 * <ul>
 *   <li>{@code VERSION_0}: the split state of Flink's official {@code KafkaSource}
 *       ({@code KafkaPartitionSplitSerializer} version 0, unchanged from flink-connector-kafka 3.x
 *       to 5.0): the layout of {@code VERSION_1}, offsets possibly its markers
 *       ({@link KafkaPartitionSplit#EARLIEST_OFFSET} and the like). Read, so that a job switching
 *       from the official source continues where it was.
 *   <li>{@code VERSION_1}: topic (modified UTF-8), partition (int), starting offset (long),
 *       stopping offset (long, {@link KafkaPartitionSplit#NO_STOPPING_OFFSET} when unbounded).
 * </ul>
 *
 * <p>The official serializer reads a split without looking at its version, so the official
 * source restores our {@code VERSION_1} splits as they are (the way back). A new format gets a
 * new version constant and a new read branch; the old branches stay so that checkpoints taken by
 * older releases can be restored. A layout other than this one breaks the way back: see
 * {@code docs/migrating.md}.
 */
@Internal
public final class KafkaPartitionSplitSerializer implements SimpleVersionedSerializer<KafkaPartitionSplit> {

    public static final int VERSION_0 = 0;
    public static final int VERSION_1 = 1;
    public static final int CURRENT_VERSION = VERSION_1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(KafkaPartitionSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(split.topic().length() + 24);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public KafkaPartitionSplit deserialize(int version, byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        KafkaPartitionSplit split = read(version, in);
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt Kafka split state: " + in.available() + " unexpected trailing bytes after " + split);
        }
        return split;
    }

    /** Writes a split in the current format; shared with the enumerator state serializer. */
    public static void write(KafkaPartitionSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.topic());
        out.writeInt(split.partition());
        out.writeLong(split.startingOffset());
        out.writeLong(split.stoppingOffset());
    }

    /** Reads a split written in format {@code version}; shared with the enumerator state serializer. */
    public static KafkaPartitionSplit read(int version, DataInputView in) throws IOException {
        switch (version) {
            case VERSION_0:
            case VERSION_1:
                String topic = in.readUTF();
                int partition = in.readInt();
                long start = in.readLong();
                long stop = in.readLong();
                try {
                    return new KafkaPartitionSplit(new TopicPartition(topic, partition), start, stop);
                } catch (IllegalArgumentException e) {
                    throw new IOException("Corrupt Kafka split state: " + e.getMessage(), e);
                }
            default:
                throw new IOException(
                        "Unknown Kafka split state version " + version + "; this release reads versions 0 (Flink's"
                                + " KafkaSource) to " + CURRENT_VERSION
                                + ". Was the checkpoint written by a newer StreamSplit release, or by another source?");
        }
    }
}
