package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.JobSplits;
import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.actuate.KafkaSplitsEndpoint;
import io.streamsplit.boot.actuate.SourceState;
import io.streamsplit.boot.actuate.SplitState;
import io.streamsplit.boot.actuate.StreamSplitEndpoint;
import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSplitAssignment;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.AutoscalerView;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.RemoteStreamEnvironment;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Remote mode submits over Flink's REST API to a session cluster the application does not own: a
 * standalone cluster in two separate JVMs with only Flink's jars, so the job runs only if the
 * application's classes (the pipeline in test-classes, the connector, kafka-clients) were shipped.
 */
class RemoteModeIT {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RemoteModeIT.class);

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static StandaloneFlinkCluster sessionCluster;
    private static URI rest;

    @BeforeAll
    static void startSessionCluster() {
        sessionCluster = SharedFlinkCluster.get();
        rest = sessionCluster.restAddress();
    }

    private static ConfigurableApplicationContext startRemote(String name, String... more) {
        List<String> properties = new ArrayList<>(List.of(
                "streamsplit.flink.mode=remote",
                "streamsplit.flink.remote.host=" + rest.getHost(),
                "streamsplit.flink.remote.port=" + rest.getPort(),
                // these tests share one cluster: each stops its job with the application
                "streamsplit.flink.shutdown.job=cancel",
                // the test JVM's own libraries need not travel (and the job shows it does not need them)
                "streamsplit.flink.remote.exclude-jars=" + SharedFlinkCluster.TEST_LIBRARIES));
        properties.addAll(List.of(more));
        return Words.start(KAFKA.bootstrapServers(), name, properties.toArray(String[]::new));
    }

    @Test
    void aSavepointTakenThroughTheEndpointResumesTheJobOnTheCluster() throws Exception {
        KAFKA.broker().createTopic("remote-sp-in", 2);
        KAFKA.broker().createTopic("remote-sp-out", 1);
        // the cluster writes the savepoint; on one machine a local directory is "shared storage"
        String savepoints = savepointDirectory("remote-savepoints");
        String savepoint;
        try (ConfigurableApplicationContext app = startRemote(
                "remote-sp",
                "streamsplit.flink.shutdown.savepoint-directory=" + savepoints,
                // the endpoint exists when exposed; this app has no web server, so over JMX
                "spring.jmx.enabled=true",
                "management.endpoints.jmx.exposure.include=kafkasplits")) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-sp-in", List.of("a", "b"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-sp-out"))
                            .containsExactlyInAnyOrder("A", "B"));
            Map<String, String> taken = app.getBean(KafkaSplitsEndpoint.class).savepoint();
            savepoint = taken.get("savepoint");
            assertThat(savepoint).as("%s", taken).startsWith(savepoints.replace("file:///", "file:/"));
            assertThat(Path.of(URI.create(savepoint))).isDirectory();
        }
        KafkaTopics.write(KAFKA.bootstrapServers(), "remote-sp-in", List.of("c"));
        try (ConfigurableApplicationContext app =
                startRemote("remote-sp", "streamsplit.flink.restore-path=" + savepoint)) {
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-sp-out"))
                            .contains("C"));
            // resumed from the savepoint's offsets: a and b are not read again
            assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-sp-out"))
                    .containsExactlyInAnyOrder("A", "B", "C");
        }
    }

    /**
     * The endpoint's operations against a job on the session cluster: pause and resume reach the
     * readers in the TaskManager JVM through the control topic; stop, start and rescale go through
     * Flink's REST API; every record is written once.
     */
    @Test
    void theEndpointPausesResumesStopsStartsAndRescalesAJobOnTheCluster() throws Exception {
        KAFKA.broker().createTopic("remote-ops-in", 2);
        KAFKA.broker().createTopic("remote-ops-out", 1);
        String savepoints = savepointDirectory("remote-ops-savepoints");
        try (ConfigurableApplicationContext app = startRemote(
                "remote-ops",
                "streamsplit.kafka.control-topic=remote-ops-control",
                "streamsplit.flink.shutdown.savepoint-directory=" + savepoints,
                "spring.jmx.enabled=true",
                "management.endpoints.jmx.exposure.include=streamsplit")) {
            StreamSplitEndpoint endpoint = app.getBean(StreamSplitEndpoint.class);
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-ops-in", List.of("a", "b"));
            awaitRemoteOutput("A", "B");
            // the sink writers' freshness histograms on the TaskManager, read over Flink's REST API
            await().atMost(Duration.ofSeconds(45)).untilAsserted(() -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> upper = (Map<String, Object>)
                        ((Map<String, Object>) endpoint.job().get("sinks")).get("upper");
                assertThat(upper).as("%s", upper).containsKey("freshness");
                @SuppressWarnings("unchecked")
                Map<String, Object> freshness = (Map<String, Object>) upper.get("freshness");
                assertThat(freshness).containsOnlyKeys("p50Ms", "p99Ms", "maxMs");
                assertThat((Long) freshness.get("maxMs")).isBetween(0L, 60_000L);
                assertThat((Long) freshness.get("p50Ms")).isLessThanOrEqualTo((Long) freshness.get("maxMs"));
            });

            Map<String, Object> paused = endpoint.operate("pause", null, "words", null);
            assertThat(paused).as("%s", paused).containsEntry("applied", true).containsEntry("state", "PAUSED");
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-ops-in", List.of("c"));
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> KafkaTopics.values(KAFKA.bootstrapServers(), "remote-ops-out")
                                    .size()
                            == 2);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> app.getBean(KafkaSplitStates.class)
                                    .read()
                                    .sources()
                                    .get("words")
                                    .lag()
                            == 1);
            Map<String, Object> resumed = endpoint.operate("resume", null, "words", null);
            assertThat(resumed).as("%s", resumed).containsEntry("applied", true);
            awaitRemoteOutput("A", "B", "C");

            Map<String, Object> stopped = endpoint.operate("stop", null, null, null);
            String savepoint = String.valueOf(stopped.get("savepoint"));
            assertThat(Path.of(URI.create(savepoint))).as("%s", stopped).isDirectory();
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-ops-in", List.of("d"));
            Map<String, Object> started = endpoint.operate("start", null, null, null);
            assertThat(sessionCluster.jobState(String.valueOf(started.get("jobId"))))
                    .isIn("CREATED", "INITIALIZING", "RUNNING");
            awaitRemoteOutput("A", "B", "C", "D");

            Map<String, Object> rescaled = endpoint.operate("rescale", 1, null, null);
            assertThat(rescaled).as("%s", rescaled).containsEntry("parallelism", 1);
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-ops-in", List.of("e"));
            awaitRemoteOutput("A", "B", "C", "D", "E");
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(app.getBean(KafkaSplitStates.class)
                                    .read()
                                    .sources()
                                    .get("words")
                                    .splits())
                            .extracting(SplitState::readerSubtask)
                            .containsExactly(0, 0));
        }
    }

    /**
     * The Flink Kubernetes Operator's autoscaler, applied to a job on the cluster whose source reads a
     * pattern matching two topics with '.' and '-' in their names: it finds all five partitions in the
     * source vertex's metric names, and reads the backlog of a paused source from pendingRecords.
     */
    @Test
    void theAutoscalerFindsEveryPartitionOfAPatternSourceAndItsBacklog() throws Exception {
        KAFKA.broker().createTopic("scale.in-a", 2);
        KAFKA.broker().createTopic("scale.in-b", 3);
        KAFKA.broker().createTopic("remote-scale-out", 1);
        try (ConfigurableApplicationContext app = startRemote(
                "remote-scale",
                "streamsplit.kafka.sources.words.topics=",
                "streamsplit.kafka.sources.words.pattern=scale\\.in-.*",
                "streamsplit.kafka.control-topic=remote-scale-control",
                "spring.jmx.enabled=true",
                "management.endpoints.jmx.exposure.include=streamsplit")) {
            String jobId = app.getBean(JobClient.class).getJobID().toHexString();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Map<String, AutoscalerView.Source> sources = AutoscalerView.read(sessionCluster, jobId);
                assertThat(sources).hasSize(1);
                AutoscalerView.Source words = sources.values().iterator().next();
                // Flink's metric query service writes '.' as '_'; the partition count is what bounds parallelism
                assertThat(words.partitions())
                        .containsExactlyInAnyOrder(
                                "scale_in-a-0", "scale_in-a-1", "scale_in-b-0", "scale_in-b-1", "scale_in-b-2");
                assertThat(words.pendingRecordsMetrics()).isNotEmpty();
                assertThat(words.backlog()).isZero();
                LOG.info("The autoscaler's view of source vertex {}: {}", sources.keySet(), words);
            });
            Map<String, Object> paused = app.getBean(StreamSplitEndpoint.class).operate("pause", null, "words", null);
            assertThat(paused).as("%s", paused).containsEntry("applied", true);
            KafkaTopics.write(KAFKA.bootstrapServers(), "scale.in-a", List.of("a1", "a2", "a3"));
            KafkaTopics.write(KAFKA.bootstrapServers(), "scale.in-b", List.of("b1", "b2"));
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(AutoscalerView.read(sessionCluster, jobId)
                                    .values()
                                    .iterator()
                                    .next()
                                    .backlog())
                            .as("the paused source's backlog as the autoscaler reads it")
                            .isEqualTo(5.0));
            app.getBean(StreamSplitEndpoint.class).operate("resume", null, "words", null);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-scale-out"))
                            .containsExactlyInAnyOrder("A1", "A2", "A3", "B1", "B2"));
        }
    }

    /** A directory the cluster writes savepoints to: on one machine, a local directory is "shared storage". */
    private static String savepointDirectory(String name) {
        Path directory = Path.of("target", "tmp", name).toAbsolutePath();
        // the broker is new on every run: a savepoint of an earlier run would be found and not fit it
        org.springframework.util.FileSystemUtils.deleteRecursively(directory.toFile());
        return directory.toUri().toString();
    }

    private static void awaitRemoteOutput(String... values) {
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-ops-out"))
                        .containsExactlyInAnyOrder(values));
    }

    @Test
    void jobRunsOnTheSessionClusterAndIsCancelledOnShutdown() throws Exception {
        KAFKA.broker().createTopic("remote-in", 2);
        KAFKA.broker().createTopic("remote-out", 1);
        JobClient client;
        try (ConfigurableApplicationContext app = startRemote("remote")) {
            assertThat(app.getBeansOfType(EmbeddedFlinkCluster.class)).isEmpty();
            assertThat(app.getBean(org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.class))
                    .isInstanceOf(RemoteStreamEnvironment.class);
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-in", List.of("a", "b", "c"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-out"))
                            .containsExactlyInAnyOrder("A", "B", "C"));
            client = app.getBean(JobClient.class);
            assertThat(sessionCluster.jobState(client.getJobID().toHexString())).isEqualTo("RUNNING");

            // what travelled: the test classes (the pipeline) and the connector, not the starter or Flink
            assertThat(app.getBean(JobJars.class).all())
                    .filteredOn(jar -> jar.verdict() == ShipRules.Verdict.EXCLUDED)
                    .hasSizeGreaterThan(10);
            List<String> shipped = app.getBean(JobJars.class).shipped().stream()
                    .map(jar -> jar.getFileName().toString())
                    .toList();
            assertThat(shipped)
                    .anyMatch(name -> name.endsWith("autoconfigure-test-classes.jar"))
                    .anyMatch(name ->
                            name.startsWith("streamsplit-connector-kafka") || name.endsWith("connector-classes.jar"))
                    .anyMatch(name -> name.startsWith("kafka-clients-"))
                    .noneMatch(name -> name.startsWith("flink-runtime")
                            || name.startsWith("spring-")
                            || name.startsWith("streamsplit-spring-boot-autoconfigure")
                            || name.endsWith("autoconfigure-classes.jar"));

            // split state and health come from the session cluster's REST API, not from an in-process handle
            KafkaSplitStates splits = app.getBean(KafkaSplitStates.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                JobSplits state = splits.read();
                assertThat(state.mode()).isEqualTo("remote");
                SourceState words = state.sources().get("words");
                assertThat(words.splits())
                        .extracting(SplitState::topic, SplitState::partition)
                        .containsExactly(tuple("remote-in", 0), tuple("remote-in", 1));
                assertThat(words.splits())
                        .allSatisfy(split -> assertThat(split.readerSubtask())
                                .isEqualTo(KafkaSplitAssignment.ownerOf(
                                        new TopicPartition("remote-in", split.partition()), 2)));
                assertThat(words.splits().stream()
                                .mapToLong(SplitState::currentOffset)
                                .sum())
                        .isEqualTo(3);
                assertThat(words.lag()).isZero();
                assertThat(words.assignedSplits()).isEqualTo(2);
                assertThat(words.recordsIn()).isEqualTo(3);
            });
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Health health = app.getBean(StreamSplitHealthIndicator.class).health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsEntry("status", "RUNNING");
            });
        }
        JobClient stopped = client;
        // the application waited for the job's result; the REST API's job view is cached for a few seconds
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(
                                sessionCluster.jobState(stopped.getJobID().toHexString()))
                        .isEqualTo("CANCELED"));
    }
}
