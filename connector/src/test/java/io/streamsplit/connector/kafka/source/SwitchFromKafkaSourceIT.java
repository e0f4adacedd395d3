package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.connector.kafka.source.savepoint.CheckpointedOffsets;
import io.streamsplit.connector.kafka.source.savepoint.KafkaSourceState;
import io.streamsplit.connector.kafka.source.savepoint.PartitionPosition;
import io.streamsplit.connector.kafka.source.savepoint.SavepointSources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job with Flink's official {@code KafkaSource} switches to StreamSplit's source and back
 * through savepoints, on a real broker, with an exactly-once sink after a keyed count: the source
 * keeps its uid, nothing else changes, no {@code --allow-non-restored-state}. Every id arrives
 * exactly once and each key's count runs 1..n without a gap or a repeat, so no offset and no keyed
 * state was lost or replayed at either switch.
 */
class SwitchFromKafkaSourceIT extends KafkaFlinkIT {

    private static final String IN = "switch-in";
    private static final String OUT = "switch-out";
    private static final String SOURCE_UID = "orders-kafka-source";
    private static final int PARTITIONS = 3;
    private static final int KEYS = 10;
    private static final int TOTAL = 100_000;

    @TempDir
    Path savepoints;

    @Test
    void officialSavepointRestoresIntoStreamSplitAndBack(@InjectClusterClient ClusterClient<?> client)
            throws Exception {
        KAFKA.broker().createTopic(IN, PARTITIONS);
        KAFKA.broker().createTopic(OUT, 1);

        write(0, TOTAL / 2);
        JobID official = client.submitJob(job(true, null)).get();
        awaitOutput(TOTAL / 2);
        String fromOfficial = stopWithSavepoint(client, official);

        assertSourceState(fromOfficial, TOTAL / 2);

        write(TOTAL / 2, TOTAL * 3 / 4);
        JobID ours = client.submitJob(job(false, fromOfficial)).get();
        awaitOutput(TOTAL * 3 / 4);
        String fromOurs = stopWithSavepoint(client, ours);

        assertSourceState(fromOurs, TOTAL * 3 / 4);

        write(TOTAL * 3 / 4, TOTAL);
        JobID back = client.submitJob(job(true, fromOurs)).get();
        List<String> out = awaitOutput(TOTAL);
        client.cancel(back).get();

        Set<Integer> ids = new HashSet<>();
        Map<String, List<Long>> counts = new HashMap<>();
        for (String line : out) {
            String[] fields = line.split(",");
            assertThat(ids.add(Integer.parseInt(fields[0])))
                    .as("id %s once", fields[0])
                    .isTrue();
            counts.computeIfAbsent(fields[1], k -> new ArrayList<>()).add(Long.parseLong(fields[2]));
        }
        assertThat(ids).hasSize(TOTAL);
        assertThat(counts).hasSize(KEYS);
        counts.forEach((key, seen) -> assertThat(new TreeSet<>(seen))
                .as("counts of %s: 1..%d, each once", key, TOTAL / KEYS)
                .hasSize(seen.size())
                .first()
                .isEqualTo(1L));
        counts.forEach((key, seen) ->
                assertThat(seen.stream().mapToLong(Long::longValue).max()).hasValue(TOTAL / KEYS));
    }

    /** The savepoint shows, before any restore, that the source continues right after {@code read} ids. */
    private static void assertSourceState(String savepoint, int read) throws Exception {
        KafkaSourceState state = SavepointSources.read(savepoint, SOURCE_UID).orElseThrow();
        assertThat(state.operatorId()).isEqualTo(SavepointSources.operatorId(SOURCE_UID));
        assertThat(state.enumeratorStateVersion()).isEqualTo(3);
        assertThat(state.topics()).containsExactly(IN);
        assertThat(state.partitions()).hasSize(PARTITIONS).allSatisfy(position -> {
            assertThat(position.heldBy()).startsWith("reader ");
            assertThat(position.marker()).isNull();
        });
        assertThat(state.partitions().stream()
                        .mapToLong(PartitionPosition::offset)
                        .sum())
                .isEqualTo(read);
        assertThat(CheckpointedOffsets.read(savepoint).values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(read);
        assertThat(SavepointSources.read(savepoint)).singleElement().satisfies(listed -> {
            assertThat(listed.uid()).isNull();
            assertThat(listed.partitions()).isEqualTo(state.partitions());
        });
        assertThat(SavepointSources.read(savepoint, "counts"))
                .as("keyed state is no source state")
                .isEmpty();
        assertThat(json(savepoint, SOURCE_UID))
                .contains(
                        "\"uid\": \"" + SOURCE_UID + "\"", "\"topic\": \"" + IN + "\", \"partition\": 2, \"offset\": ");
    }

    /** What the command prints for the source with {@code uid}. */
    private static String json(String savepoint, String uid) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            SavepointSources.main(new String[] {savepoint, uid});
        } finally {
            System.setOut(stdout);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    private JobGraph job(boolean officialSource, String restoreFrom) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(1000);
        DataStream<String> ids = officialSource
                ? env.fromSource(
                                KafkaSource.<String>builder()
                                        .setBootstrapServers(KAFKA.bootstrapServers())
                                        .setTopics(IN)
                                        .setGroupId("switch")
                                        .setStartingOffsets(OffsetsInitializer.earliest())
                                        .setValueOnlyDeserializer(new SimpleStringSchema())
                                        .build(),
                                WatermarkStrategy.noWatermarks(),
                                "ids")
                        .uid(SOURCE_UID)
                : env.fromSource(
                                StreamSplitKafkaSource.<String>builder()
                                        .setBootstrapServers(KAFKA.bootstrapServers())
                                        .setTopics(IN)
                                        .setGroupId("switch")
                                        .setStartingOffsets(StartingOffsets.earliest())
                                        .setDeserializer(
                                                record -> new String(record.value(), StandardCharsets.UTF_8),
                                                String.class)
                                        .build(),
                                WatermarkStrategy.noWatermarks(),
                                "ids")
                        .uid(SOURCE_UID);
        Properties producer = new Properties();
        producer.setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "60000");
        ids.keyBy(id -> "k" + Integer.parseInt(id) % KEYS)
                .process(new CountPerKey())
                .uid("counts")
                .sinkTo(KafkaSink.<String>builder()
                        .setBootstrapServers(KAFKA.bootstrapServers())
                        .setKafkaProducerConfig(producer)
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setTransactionalIdPrefix("switch")
                        .setRecordSerializer(KafkaRecordSerializationSchema.builder()
                                .setTopic(OUT)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build())
                        .build())
                .uid("sink");
        JobGraph graph = env.getStreamGraph().getJobGraph();
        if (restoreFrom != null) {
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(restoreFrom, false));
        }
        return graph;
    }

    private String stopWithSavepoint(ClusterClient<?> client, JobID job) throws Exception {
        String path = client.stopWithSavepoint(job, false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.getJobStatus(job).get() == JobStatus.FINISHED);
        return path;
    }

    private static void write(int from, int to) {
        KafkaTestRecords.write(
                KAFKA.bootstrapServers(),
                IN,
                PARTITIONS,
                IntStream.range(from, to).mapToObj(String::valueOf).toList());
    }

    /** The committed output once it holds {@code expected} records (id,key,count lines). */
    private static List<String> awaitOutput(int expected) {
        Properties props = new Properties();
        props.put("bootstrap.servers", KAFKA.bootstrapServers());
        props.put("isolation.level", "read_committed");
        props.put("max.poll.records", "10000");
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", StringDeserializer.class.getName());
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(List.of(new TopicPartition(OUT, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(OUT, 0)));
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                ConsumerRecords<String, String> records;
                do {
                    records = consumer.poll(Duration.ofMillis(200));
                    records.forEach(record -> out.add(record.value()));
                } while (!records.isEmpty());
                return out.size() >= expected;
            });
        }
        return out;
    }

    /** Counts the ids of each key in keyed state: {@code id,key,count}. */
    static final class CountPerKey extends KeyedProcessFunction<String, String, String> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext openContext) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(String id, Context ctx, Collector<String> out) throws Exception {
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(id + "," + ctx.getCurrentKey() + "," + next);
        }
    }
}
