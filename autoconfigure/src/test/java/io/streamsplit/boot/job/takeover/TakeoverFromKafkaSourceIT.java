package io.streamsplit.boot.job.takeover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A hand-written Flink job with the official {@code KafkaSource} is stopped with a savepoint, and a
 * YAML application takes over from it: {@code uid} on the source (and the sink) and
 * {@code restore-path}; nothing read twice, nothing skipped, the keyed counts go on. Without the uid the
 * start fails, naming the property and the topics of the state no source claims.
 */
@ExtendWith(OutputCaptureExtension.class)
class TakeoverFromKafkaSourceIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final String IN = "takeover-in";
    private static final String OUT = "takeover-out";
    private static final String SOURCE_UID = "legacy-kafka-source";
    private static final String SINK_UID = "legacy-sink";
    private static final int HALF = 6_000;

    @TempDir
    Path savepoints;

    @Test
    void aYamlApplicationContinuesFromTheSavepointOfAHandWrittenJob(CapturedOutput output) throws Exception {
        KAFKA.broker().createTopic(IN, 3);
        KAFKA.broker().createTopic(OUT, 1);
        write(0, HALF);
        String savepoint = runHandWrittenJobAndStopWithSavepoint();

        write(HALF, 2 * HALF);
        Throwable failure = catchThrowable(() -> start(savepoint, false).close());
        FailureAnalysis analysis = FailureReports.analyze(failure);
        assertThat(analysis).as("a report for %s", failure).isNotNull();
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.ids.uid", "ids-source", "offsets of topics [" + IN + "]");
        assertThat(analysis.getAction()).contains("uid its predecessor had");

        try (ConfigurableApplicationContext app = start(savepoint, true)) {
            await().atMost(Duration.ofSeconds(90))
                    .until(() ->
                            KafkaTopics.values(KAFKA.bootstrapServers(), OUT).size() >= 2 * HALF);
        }
        List<String> out = KafkaTopics.values(KAFKA.bootstrapServers(), OUT);
        Set<Integer> ids = new HashSet<>();
        Map<String, Set<Long>> counts = new HashMap<>();
        for (String line : out) {
            String[] fields = line.split(",");
            assertThat(ids.add(Integer.parseInt(fields[0])))
                    .as("id %s once", fields[0])
                    .isTrue();
            assertThat(counts.computeIfAbsent(fields[1], k -> new TreeSet<>()).add(Long.parseLong(fields[2])))
                    .as("count %s of %s once", fields[2], fields[1])
                    .isTrue();
        }
        assertThat(ids).hasSize(2 * HALF);
        assertThat(counts).hasSize(IdCounts.KEYS);
        counts.forEach((key, seen) -> assertThat(seen)
                .as("counts of %s", key)
                .hasSize(2 * HALF / IdCounts.KEYS)
                .contains(1L, (long) 2 * HALF / IdCounts.KEYS));

        // a source that now reads another topic: the savepoint's offsets of the old one are dropped, and said so
        KAFKA.broker().createTopic("takeover-other", 1);
        start(savepoint, true, "streamsplit.kafka.sources.ids.topics=takeover-other")
                .close();
        assertThat(output.getOut())
                .contains(
                        "Source 'ids' restores offsets of topics [" + IN + "] from " + savepoint,
                        "those partitions are released and their offsets dropped",
                        "streamsplit.kafka.sources.ids.topics");

        // the input topic deleted and recreated since the savepoint: its offsets point beyond the new ends
        KAFKA.broker().deleteTopic(IN);
        await().atMost(Duration.ofSeconds(30)).until(() -> !topics().contains(IN));
        KAFKA.broker().createTopic(IN, 3);
        write(0, 10);
        FailureAnalysis stale = FailureReports.analyze(
                catchThrowable(() -> start(savepoint, true).close()));
        assertThat(stale).isNotNull();
        assertThat(stale.getDescription())
                .contains(
                        "streamsplit.flink.restore-path",
                        savepoint,
                        "does not fit the topics in Kafka",
                        "beyond its end");
        assertThat(stale.getAction()).contains("on-stale-checkpoint=resume");
    }

    @Test
    void stateOfAnotherKindOfSourceUnderTheUidFailsTheStart() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.enableCheckpointing(500);
        env.fromSource(new NumberSequenceSource(0, Long.MAX_VALUE), WatermarkStrategy.noWatermarks(), "numbers")
                .uid(SOURCE_UID)
                .map(n -> {
                    Thread.sleep(1); // paces the endless sequence (no test waits on it): the job idles, not spins
                    return String.valueOf(n);
                })
                .sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("numbers");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> job.getJobStatus().get() == org.apache.flink.api.common.JobStatus.RUNNING);
        String savepoint = await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(
                        () -> job.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                                .get(30, TimeUnit.SECONDS),
                        path -> path != null);
        KAFKA.broker().createTopic(IN, 3);

        FailureAnalysis analysis = FailureReports.analyze(
                catchThrowable(() -> start(savepoint, true).close()));
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.ids.uid", SOURCE_UID, savepoint, "is not a Kafka source's");
        assertThat(analysis.getAction()).contains("Flink's KafkaSource");
    }

    private static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
            return admin.listTopics().names().get();
        }
    }

    private String runHandWrittenJobAndStopWithSavepoint() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.enableCheckpointing(500);
        env.fromSource(
                        KafkaSource.<String>builder()
                                .setBootstrapServers(KAFKA.bootstrapServers())
                                .setTopics(IN)
                                .setGroupId("legacy")
                                .setStartingOffsets(OffsetsInitializer.earliest())
                                .setValueOnlyDeserializer(new SimpleStringSchema())
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "ids")
                .uid(SOURCE_UID)
                .keyBy(IdCounts::key)
                .process(new IdCounts())
                .uid("counts")
                .sinkTo(KafkaSink.<String>builder()
                        .setBootstrapServers(KAFKA.bootstrapServers())
                        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                        .setRecordSerializer(KafkaRecordSerializationSchema.builder()
                                .setTopic(OUT)
                                .setValueSerializationSchema(new SimpleStringSchema())
                                .build())
                        .build())
                .uid(SINK_UID);
        JobClient job = env.executeAsync("hand-written");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> KafkaTopics.values(KAFKA.bootstrapServers(), OUT).size() >= HALF);
        return job.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);
    }

    private static ConfigurableApplicationContext start(String savepoint, boolean withUids, String... more) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(TakeoverApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=takeover",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                        "streamsplit.kafka.sources.ids.topics=" + IN,
                        "streamsplit.kafka.sources.ids.format=string",
                        "streamsplit.kafka.sinks.counts.topic=" + OUT,
                        "streamsplit.kafka.sinks.counts.format=string",
                        "streamsplit.flink.parallelism=2",
                        "streamsplit.flink.checkpointing.interval=500ms",
                        "streamsplit.flink.restore-path=" + savepoint);
        if (withUids) {
            app.properties(
                    "streamsplit.kafka.sources.ids.uid=" + SOURCE_UID,
                    "streamsplit.kafka.sinks.counts.uid=" + SINK_UID);
        }
        return app.properties(more).run();
    }

    private static void write(int from, int to) throws Exception {
        KafkaTopics.write(
                KAFKA.bootstrapServers(),
                IN,
                IntStream.range(from, to).mapToObj(String::valueOf).toList());
    }
}
