package io.streamsplit.connector.kafka.source.savepoint;

import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorState;
import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorStateSerializer;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.OperatorStateHandle;
import org.apache.flink.runtime.state.memory.ByteStreamStateHandle;
import org.apache.flink.streaming.api.graph.StreamGraphHasherV2;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Reads what the Kafka sources in a checkpoint or savepoint would continue from, without restoring
 * it: per source operator, every partition with its next offset and who holds it. Reads the state of
 * StreamSplit's source and of Flink's official {@code KafkaSource} (flink-connector-kafka 3.x to 5.0).
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.source.savepoint.KafkaSourceState;
 * import io.streamsplit.connector.kafka.source.savepoint.SavepointSources;
 *
 * Optional<KafkaSourceState> orders = SavepointSources.read("file:///savepoints/savepoint-4d1c2a-0f3b", "orders-source");
 * orders.ifPresent(state -> state.partitions().forEach(System.out::println));  // orders-0@1200 ...
 * }</pre>
 *
 * <p>As a command, with the application's jar (a Spring Boot jar starts any main class through its
 * {@code PropertiesLauncher}), printing JSON:
 *
 * <pre>{@code
 * java -cp app.jar -Dloader.main=io.streamsplit.connector.kafka.source.savepoint.SavepointSources \
 *     org.springframework.boot.loader.launch.PropertiesLauncher file:///savepoints/savepoint-4d1c2a-0f3b orders-source
 * }</pre>
 */
@PublicEvolving
public final class SavepointSources {

    /** The operator state Flink's {@code SourceOperator} keeps its readers' splits in. */
    private static final String READER_STATE = "SourceReaderState";

    private SavepointSources() {}

    /** The operator id Flink derives from a uid: how a savepoint names the operator's state. */
    public static String operatorId(String uid) {
        return new OperatorID(StreamGraphHasherV2.generateUserSpecifiedHash(uid)).toHexString();
    }

    /**
     * The state of every Kafka source in {@code savepoint} (a checkpoint or savepoint directory, or its
     * {@code _metadata} file); operators of other kinds are left out.
     */
    public static List<KafkaSourceState> read(String savepoint) throws IOException {
        return read(metadata(savepoint));
    }

    /** The state of every Kafka source in already loaded {@code metadata} ({@link #metadata}). */
    public static List<KafkaSourceState> read(CheckpointMetadata metadata) throws IOException {
        List<KafkaSourceState> sources = new ArrayList<>();
        for (OperatorState operator : metadata.getOperatorStates()) {
            Inspected inspected = inspect(operator);
            if (inspected.state() != null) {
                sources.add(inspected.state());
            }
        }
        return sources;
    }

    /**
     * The state the source with {@code uid} left in {@code savepoint}; empty when the savepoint holds
     * no state under that uid.
     *
     * @throws IOException when the savepoint cannot be read, or the operator with that uid holds state
     *     no Kafka source of a known version wrote (the message says what was found)
     */
    public static Optional<KafkaSourceState> read(String savepoint, String uid) throws IOException {
        String id = operatorId(uid);
        for (OperatorState operator : metadata(savepoint).getOperatorStates()) {
            if (!operator.getOperatorID().toHexString().equals(id)) {
                continue;
            }
            Inspected inspected = inspect(operator);
            if (inspected.state() != null) {
                return Optional.of(inspected.state().withUid(uid));
            }
            if (inspected.problem() != null) {
                throw new IOException("The state of operator '" + uid + "' (" + id + ") in " + savepoint
                        + " is not a Kafka source's: " + inspected.problem());
            }
        }
        return Optional.empty();
    }

    /**
     * Prints the sources' state in a savepoint as JSON: {@code <savepoint> [uid ...]}; with uids, only
     * those sources, named.
     */
    public static void main(String[] args) throws IOException {
        // the JSON alone on standard output, so that it can be piped (jq); log lines go to standard error
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        if (args.length == 0) {
            System.err.println("Usage: SavepointSources <checkpoint or savepoint path> [source uid ...]");
            System.exit(2);
        }
        List<KafkaSourceState> sources = new ArrayList<>();
        if (args.length == 1) {
            sources.addAll(read(args[0]));
        } else {
            for (int i = 1; i < args.length; i++) {
                String uid = args[i];
                sources.add(read(args[0], uid)
                        .orElseThrow(() -> new IOException("No state of an operator with uid '" + uid + "' ("
                                + operatorId(uid) + ") in " + args[0])));
            }
        }
        out.println(toJson(args[0], sources));
    }

    /** {@code {"savepoint": ..., "sources": [{"operatorId": ..., "uid": ..., "partitions": [...]}]}}. */
    public static String toJson(String savepoint, List<KafkaSourceState> sources) {
        StringBuilder json = new StringBuilder("{\n  \"savepoint\": ")
                .append(quote(savepoint))
                .append(",\n");
        json.append("  \"sources\": [");
        for (int i = 0; i < sources.size(); i++) {
            KafkaSourceState source = sources.get(i);
            json.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"operatorId\": ")
                    .append(quote(source.operatorId()))
                    .append(", \"uid\": ")
                    .append(source.uid() == null ? "null" : quote(source.uid()))
                    .append(", \"enumeratorStateVersion\": ")
                    .append(source.enumeratorStateVersion())
                    .append(", \"topics\": [");
            json.append(String.join(
                    ", ", source.topics().stream().map(SavepointSources::quote).toList()));
            json.append("],\n     \"partitions\": [");
            List<PartitionPosition> partitions = source.partitions();
            for (int p = 0; p < partitions.size(); p++) {
                PartitionPosition position = partitions.get(p);
                json.append(p == 0 ? "\n" : ",\n")
                        .append("      {\"topic\": ")
                        .append(quote(position.topic()))
                        .append(", \"partition\": ")
                        .append(position.partition())
                        .append(", \"offset\": ")
                        .append(position.offset())
                        .append(", \"marker\": ")
                        .append(position.marker() == null ? "null" : quote(position.marker()))
                        .append(", \"heldBy\": ")
                        .append(quote(position.heldBy()))
                        .append('}');
            }
            json.append(partitions.isEmpty() ? "]}" : "\n     ]}");
        }
        return json.append(sources.isEmpty() ? "]\n}" : "\n  ]\n}").toString();
    }

    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < 0x20) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    /**
     * The metadata of the checkpoint or savepoint at {@code savepoint} (its directory or its {@code _metadata}
     * file): every operator's id, uid and name where Flink recorded them, max parallelism and state handles.
     */
    public static CheckpointMetadata metadata(String savepoint) throws IOException {
        Path path = new Path(savepoint);
        Path metadata = path.getName().equals("_metadata") ? path : new Path(path, "_metadata");
        FileSystem fs = metadata.getFileSystem();
        try (DataInputStream in = new DataInputStream(fs.open(metadata))) {
            return Checkpoints.loadCheckpointMetadata(
                    in,
                    SavepointSources.class.getClassLoader(),
                    metadata.getParent().toString());
        }
    }

    /** A Kafka source's state, or why the operator's source state is not one, or neither (no source). */
    private record Inspected(
            @Nullable KafkaSourceState state, @Nullable String problem) {}

    private static Inspected inspect(OperatorState operator) throws IOException {
        ByteStreamStateHandle coordinator = operator.getCoordinatorState();
        Map<Integer, List<byte[]>> readerSplits = readerSplits(operator);
        if (coordinator == null && readerSplits.isEmpty()) {
            return new Inspected(null, null);
        }
        Map<TopicPartition, PartitionPosition> positions = new HashMap<>();
        KafkaPartitionSplitSerializer splits = new KafkaPartitionSplitSerializer();
        for (Map.Entry<Integer, List<byte[]>> reader : readerSplits.entrySet()) {
            for (byte[] bytes : reader.getValue()) {
                KafkaPartitionSplit split;
                try {
                    split = SimpleVersionedSerialization.readVersionAndDeSerialize(splits, bytes);
                } catch (IOException | RuntimeException e) {
                    return new Inspected(
                            null, "a reader's split is not a Kafka partition split (" + e.getMessage() + ")");
                }
                positions.put(split.topicPartition(), position(split, "reader " + reader.getKey()));
            }
        }
        int enumeratorVersion = -1;
        if (coordinator != null) {
            KafkaEnumeratorState enumerator;
            try {
                DataInputDeserializer in = new DataInputDeserializer(coordinator.getData());
                in.readInt(); // the source coordinator's own format version
                enumeratorVersion = in.readInt();
                byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                enumerator = new KafkaEnumeratorStateSerializer().deserialize(enumeratorVersion, bytes);
            } catch (IOException | RuntimeException e) {
                return new Inspected(
                        null,
                        "its enumerator state (version " + enumeratorVersion
                                + ") is not a Kafka source's of a known version (" + e.getMessage() + ")");
            }
            for (KafkaPartitionSplit pending : enumerator.pendingSplits()) {
                positions.putIfAbsent(pending.topicPartition(), position(pending, "enumerator"));
            }
            for (TopicPartition unresolved : enumerator.unresolvedPartitions()) {
                positions.putIfAbsent(
                        unresolved,
                        new PartitionPosition(
                                unresolved.topic(), unresolved.partition(), null, "starting-offsets", "enumerator"));
            }
        }
        List<PartitionPosition> sorted = new ArrayList<>(positions.values());
        sorted.sort(Comparator.comparing(PartitionPosition::topic).thenComparingInt(PartitionPosition::partition));
        return new Inspected(
                new KafkaSourceState(operator.getOperatorID().toHexString(), null, enumeratorVersion, sorted), null);
    }

    private static PartitionPosition position(KafkaPartitionSplit split, String heldBy) {
        long start = split.startingOffset();
        return new PartitionPosition(
                split.topic(),
                split.partition(),
                start >= 0 ? start : null,
                start >= 0 ? null : KafkaPartitionSplit.describe(start),
                heldBy);
    }

    /** Subtask index → the serialized splits its reader held. */
    private static Map<Integer, List<byte[]>> readerSplits(OperatorState operator) throws IOException {
        Map<Integer, List<byte[]>> splits = new LinkedHashMap<>();
        for (Map.Entry<Integer, OperatorSubtaskState> subtask :
                operator.getSubtaskStates().entrySet()) {
            for (OperatorStateHandle handle : subtask.getValue().getManagedOperatorState()) {
                OperatorStateHandle.StateMetaInfo meta =
                        handle.getStateNameToPartitionOffsets().get(READER_STATE);
                if (meta == null || meta.getOffsets().length == 0) {
                    continue;
                }
                List<byte[]> held = splits.computeIfAbsent(subtask.getKey(), k -> new ArrayList<>());
                try (FSDataInputStream in = handle.openInputStream()) {
                    DataInputViewStreamWrapper view = new DataInputViewStreamWrapper(in);
                    for (long offset : meta.getOffsets()) {
                        in.seek(offset);
                        held.add(BytePrimitiveArraySerializer.INSTANCE.deserialize(view));
                    }
                }
            }
        }
        return splits;
    }
}
