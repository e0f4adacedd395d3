package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.utils.SerdeUtils;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.common.TopicPartition;

/**
 * Versioned serializer of {@link KafkaEnumeratorState}, used in the JobManager's checkpoints.
 *
 * <p>It writes the layout of Flink's official {@code KafkaSourceEnumStateSerializer} version 3
 * (flink-connector-kafka 5.0), so that the official 5.0 source restores a savepoint of ours, and
 * reads every version the official source ever wrote, so that a job switching from it continues
 * where it was:
 *
 * <ul>
 *   <li>{@code 0} (official, 1.x): the split assignment per subtask
 *       (Flink's {@code SerdeUtils}); every split assigned.
 *   <li>{@code 1} (official, up to 3.0): partition count, then topic (modified UTF-8) and partition
 *       (int) of each assigned partition.
 *   <li>{@code 1} (StreamSplit before this release): initial-discovery-finished flag (boolean);
 *       assigned partitions as count, then topic and partition each; pending splits as count, then
 *       each split in {@link KafkaPartitionSplitSerializer#VERSION_1} layout. The two version-1
 *       layouts cannot both parse the same bytes (the counts would claim more bytes than there are),
 *       so the reader tries ours, then the official one.
 *   <li>{@code 2} (official 3.1 to 4.0): partition count, then topic, partition and assignment status
 *       (int: 0 assigned, 1 unassigned) each; initial-discovery-finished flag. Unassigned partitions
 *       carry no offset: they start from the configured starting offsets.
 *   <li>{@code 3} (official 5.0, and StreamSplit now): split count, split serializer version (int),
 *       then per split its length (int), its bytes and its assignment status (int);
 *       initial-discovery-finished flag. An assigned split's offsets are not used (its reader holds
 *       them); we write {@code Long.MIN_VALUE} there, as the official source does for partitions it
 *       migrated from version 2. An unassigned split with that starting offset is unresolved.
 * </ul>
 *
 * <p>Partitions of one topic repeat the topic name; at 100k partitions over a few topics that is
 * still a few MB, measured in the benchmarks module.
 */
@Internal
public final class KafkaEnumeratorStateSerializer implements SimpleVersionedSerializer<KafkaEnumeratorState> {

    public static final int VERSION_0 = 0;
    public static final int VERSION_1 = 1;
    public static final int VERSION_2 = 2;
    public static final int VERSION_3 = 3;
    public static final int CURRENT_VERSION = VERSION_3;

    /** Starting offset of a partition whose offset is not recorded (the official source's MIGRATED). */
    static final long NO_OFFSET = Long.MIN_VALUE;

    private static final int ASSIGNED = 0;
    private static final int UNASSIGNED = 1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(KafkaEnumeratorState state) throws IOException {
        int entries = state.assignedPartitions().size()
                + state.pendingSplits().size()
                + state.unresolvedPartitions().size();
        DataOutputSerializer out = new DataOutputSerializer(64 + 48 * entries);
        out.writeInt(entries);
        out.writeInt(KafkaPartitionSplitSerializer.CURRENT_VERSION);
        for (TopicPartition tp : state.assignedPartitions()) {
            writeEntry(out, tp, NO_OFFSET, KafkaPartitionSplit.NO_STOPPING_OFFSET, ASSIGNED);
        }
        for (KafkaPartitionSplit split : state.pendingSplits()) {
            writeEntry(out, split.topicPartition(), split.startingOffset(), split.stoppingOffset(), UNASSIGNED);
        }
        for (TopicPartition tp : state.unresolvedPartitions()) {
            writeEntry(out, tp, NO_OFFSET, KafkaPartitionSplit.NO_STOPPING_OFFSET, UNASSIGNED);
        }
        out.writeBoolean(state.initialDiscoveryFinished());
        return out.getCopyOfBuffer();
    }

    private static void writeEntry(DataOutputSerializer out, TopicPartition tp, long start, long stop, int status)
            throws IOException {
        out.writeInt(2 + utfLength(tp.topic()) + 4 + 8 + 8); // the split's bytes, written in place
        out.writeUTF(tp.topic());
        out.writeInt(tp.partition());
        out.writeLong(start);
        out.writeLong(stop);
        out.writeInt(status);
    }

    /** The bytes {@code writeUTF} writes for {@code text} after its two length bytes (modified UTF-8). */
    private static int utfLength(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c >= 0x0001 && c <= 0x007F ? 1 : c <= 0x07FF ? 2 : 3;
        }
        return bytes;
    }

    @Override
    public KafkaEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        switch (version) {
            case VERSION_0:
                return readOfficialVersion0(serialized);
            case VERSION_1:
                try {
                    return readStreamSplitVersion1(serialized);
                } catch (IOException notOurs) {
                    try {
                        return readOfficialVersion1(serialized);
                    } catch (IOException notOfficial) {
                        notOurs.addSuppressed(notOfficial);
                        throw notOurs;
                    }
                }
            case VERSION_2:
                return readOfficialVersion2(serialized);
            case VERSION_3:
                return readVersion3(serialized);
            default:
                throw new IOException("Unknown Kafka enumerator state version " + version
                        + "; this release reads versions 0 to " + CURRENT_VERSION
                        + " (StreamSplit's and those of Flink's KafkaSource up to flink-connector-kafka 5.0)."
                        + " Was the checkpoint written by a newer release, or by another source?");
        }
    }

    private static KafkaEnumeratorState readOfficialVersion0(byte[] serialized) throws IOException {
        Map<Integer, List<KafkaPartitionSplit>> assignment =
                SerdeUtils.deserializeSplitAssignments(serialized, new KafkaPartitionSplitSerializer(), ArrayList::new);
        Set<TopicPartition> assigned = new LinkedHashSet<>();
        assignment.values().forEach(splits -> splits.forEach(split -> assigned.add(split.topicPartition())));
        return new KafkaEnumeratorState(assigned, List.of(), true);
    }

    private static KafkaEnumeratorState readStreamSplitVersion1(byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        byte flag = in.readByte();
        if (flag != 0 && flag != 1) {
            throw new IOException("Corrupt Kafka enumerator state: flag byte " + flag);
        }
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
        requireEnd(in);
        return new KafkaEnumeratorState(assigned, pending, flag == 1);
    }

    private static KafkaEnumeratorState readOfficialVersion1(byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = readCount(in, "partitions");
        List<TopicPartition> assigned = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            assigned.add(new TopicPartition(in.readUTF(), in.readInt()));
        }
        requireEnd(in);
        return new KafkaEnumeratorState(assigned, List.of(), true);
    }

    private static KafkaEnumeratorState readOfficialVersion2(byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = readCount(in, "partitions");
        List<TopicPartition> assigned = new ArrayList<>();
        List<TopicPartition> unresolved = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            TopicPartition tp = new TopicPartition(in.readUTF(), in.readInt());
            (readStatus(in, tp) == ASSIGNED ? assigned : unresolved).add(tp);
        }
        boolean initialDiscoveryFinished = in.readBoolean();
        requireEnd(in);
        return new KafkaEnumeratorState(assigned, List.of(), unresolved, initialDiscoveryFinished);
    }

    private static KafkaEnumeratorState readVersion3(byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = readCount(in, "splits");
        int splitVersion = in.readInt();
        if (splitVersion != KafkaPartitionSplitSerializer.VERSION_0
                && splitVersion != KafkaPartitionSplitSerializer.VERSION_1) {
            throw new IOException("Kafka enumerator state holds splits of version " + splitVersion
                    + "; this release reads versions 0 and 1");
        }
        List<TopicPartition> assigned = new ArrayList<>();
        List<KafkaPartitionSplit> pending = new ArrayList<>();
        List<TopicPartition> unresolved = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int length = readCount(in, "split bytes");
            int end = in.getPosition() + length;
            TopicPartition tp = new TopicPartition(in.readUTF(), in.readInt());
            long start = in.readLong();
            long stop = in.readLong();
            if (in.getPosition() != end) {
                throw new IOException(
                        "Corrupt Kafka enumerator state: split " + tp + " announced " + length + " bytes");
            }
            if (readStatus(in, tp) == ASSIGNED) {
                assigned.add(tp);
            } else if (start == NO_OFFSET) {
                unresolved.add(tp);
            } else {
                try {
                    pending.add(new KafkaPartitionSplit(tp, start, stop));
                } catch (IllegalArgumentException e) {
                    throw new IOException("Corrupt Kafka enumerator state: " + e.getMessage(), e);
                }
            }
        }
        boolean initialDiscoveryFinished = in.readBoolean();
        requireEnd(in);
        return new KafkaEnumeratorState(assigned, pending, unresolved, initialDiscoveryFinished);
    }

    private static int readStatus(DataInputDeserializer in, TopicPartition tp) throws IOException {
        int status = in.readInt();
        if (status != ASSIGNED && status != UNASSIGNED) {
            throw new IOException("Corrupt Kafka enumerator state: partition " + tp + " has assignment status " + status
                    + " (expected 0 assigned or 1 unassigned)");
        }
        return status;
    }

    private static int readCount(DataInputDeserializer in, String what) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > in.available()) {
            throw new IOException("Corrupt Kafka enumerator state: " + count + " " + what + " announced but only "
                    + in.available() + " bytes left");
        }
        return count;
    }

    private static void requireEnd(DataInputDeserializer in) throws IOException {
        if (in.available() > 0) {
            throw new IOException("Corrupt Kafka enumerator state: " + in.available() + " unexpected trailing bytes");
        }
    }
}
