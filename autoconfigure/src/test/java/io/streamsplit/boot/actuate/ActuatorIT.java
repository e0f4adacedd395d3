package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.connector.kafka.source.enumerator.KafkaSplitAssignment;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Health, the kafkasplits endpoint and the Micrometer meters over a real HTTP port, for a job on
 * the embedded MiniCluster reading a 3-partition topic with parallelism 2.
 */
@SpringBootTest(
        classes = io.streamsplit.boot.autoconfigure.WordsApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.application.name=actuator-it",
            "streamsplit.kafka.embedded.enabled=false",
            "streamsplit.kafka.sources.words.topics=act-in",
            "streamsplit.kafka.sources.words.group-id=actuator-it",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sources.words.properties.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"app\" password=\"s3cr3t-jaas\";",
            "streamsplit.kafka.properties.ssl.key.password=s3cr3t-key",
            "streamsplit.kafka.sinks.upper.topic=act-out",
            "streamsplit.kafka.sinks.upper.serializer=utf8",
            "streamsplit.flink.parallelism=2",
            "streamsplit.flink.checkpointing.interval=500ms",
            "management.endpoints.web.exposure.include=health,kafkasplits,metrics",
            "management.endpoint.health.show-details=always",
            "management.endpoint.kafkasplits.access=unrestricted",
            "management.metrics.distribution.percentiles.streamsplit.kafka.sink.freshness=0.5,0.9"
        })
// the broker of this class stops after it: its context (and job) must stop with it, not linger in the cache
@DirtiesContext
class ActuatorIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @TempDir
    static Path savepoints;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("streamsplit.kafka.bootstrap-servers", KAFKA::bootstrapServers);
        registry.add(
                "streamsplit.flink.shutdown.savepoint-directory",
                () -> savepoints.toUri().toString());
    }

    @BeforeAll
    static void topics() {
        KAFKA.broker().createTopic("act-in", 3);
        KAFKA.broker().createTopic("act-out", 1);
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final List<String> bodies = new ArrayList<>();

    private HttpResponse<String> call(String method, String path) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .header("Content-Type", "application/json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        bodies.add(response.body());
        return response;
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = call("GET", path);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isIn(200, 503);
        return json.readTree(response.body());
    }

    private static void write(int partition, int count) throws Exception {
        Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(
                                "act-in", partition, null, ("w" + i).getBytes(StandardCharsets.UTF_8)))
                        .get();
            }
        }
    }

    /** partition → current offset, for the splits the endpoint lists now. */
    private Map<Integer, Long> currentOffsets() throws Exception {
        Map<Integer, Long> offsets = new TreeMap<>();
        for (JsonNode split :
                get("/actuator/kafkasplits").path("sources").path("words").path("splits")) {
            offsets.put(
                    split.path("partition").asInt(), split.path("currentOffset").asLong(-1));
        }
        return offsets;
    }

    @Test
    void splitEndpointHealthAndMetersFollowThePipeline() throws Exception {
        for (int partition = 0; partition < 3; partition++) {
            write(partition, 10);
        }
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(currentOffsets()).isEqualTo(Map.of(0, 10L, 1, 10L, 2, 10L)));
        // the log end offset is the consumer's last fetch metric: it can trail the position by one report
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(get("/actuator/kafkasplits")
                                .path("sources")
                                .path("words")
                                .path("splits")
                                .findValuesAsText("logEndOffset"))
                        .containsExactly("10", "10", "10"));

        JsonNode splits = get("/actuator/kafkasplits");
        assertThat(splits.path("status").asText()).isEqualTo("RUNNING");
        assertThat(splits.path("mode").asText()).isEqualTo("embedded");
        JsonNode words = splits.path("sources").path("words");
        assertThat(words.path("topics").get(0).asText()).isEqualTo("act-in");
        assertThat(words.path("bounded").asBoolean()).isFalse();
        assertThat(words.path("pendingSplits")).isEmpty();
        assertThat(words.path("assignedSplits").asLong()).isEqualTo(3);
        assertThat(words.path("lastDiscovery").asText()).isNotBlank();
        for (JsonNode split : words.path("splits")) {
            int partition = split.path("partition").asInt();
            assertThat(split.path("readerSubtask").asInt())
                    .as("owner of partition " + partition)
                    .isEqualTo(KafkaSplitAssignment.ownerOf(new TopicPartition("act-in", partition), 2));
            assertThat(split.path("startingOffset").asLong()).isZero();
            assertThat(split.path("logEndOffset").asLong()).isEqualTo(10);
            assertThat(split.path("lag").asLong()).isZero();
            assertThat(split.path("stoppingOffset").isNull()).isTrue();
            assertThat(split.path("paused").asBoolean()).isFalse();
        }

        write(0, 5);
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(currentOffsets()).isEqualTo(Map.of(0, 15L, 1, 10L, 2, 10L)));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode p0 = get("/actuator/kafkasplits/words")
                    .path("sources")
                    .path("words")
                    .path("splits")
                    .get(0);
            assertThat(p0.path("committedOffset").asLong())
                    .as("committed on a checkpoint")
                    .isEqualTo(15);
            assertThat(p0.path("lag").asLong()).isZero();
        });
        assertThat(call("GET", "/actuator/kafkasplits/nope").statusCode()).isEqualTo(404);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode health = get("/actuator/health");
            assertThat(health.path("status").asText()).isEqualTo("UP");
            JsonNode job = health.path("components").path("streamsplit").path("details");
            assertThat(job.path("status").asText()).isEqualTo("RUNNING");
            assertThat(job.path("restarts").asLong()).isZero();
            assertThat(job.path("lastCheckpoint").path("id").asLong()).isPositive();
            assertThat(job.path("sources").path("words").path("assignedSplits").asLong())
                    .isEqualTo(3);
            assertThat(job.path("sources").path("words").path("lag").asLong()).isZero();
        });

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode lag = get("/actuator/metrics/streamsplit.kafka.source.lag?tag=source:words&tag=partition:0");
            assertThat(lag.path("measurements").get(0).path("value").asDouble()).isZero();
            JsonNode offset = get("/actuator/metrics/streamsplit.kafka.source.offset?tag=partition:0");
            assertThat(offset.path("measurements").get(0).path("value").asDouble())
                    .isEqualTo(15.0);
            JsonNode in = get("/actuator/metrics/streamsplit.kafka.source.records.in?tag=source:words");
            assertThat(in.path("measurements").get(0).path("value").asDouble()).isEqualTo(35.0);
            JsonNode age = get("/actuator/metrics/streamsplit.flink.checkpoint.age");
            assertThat(age.path("measurements").get(0).path("value").asDouble()).isBetween(0.0, 30.0);
        });

        // one record a minute old among 35 fresh ones: its age is the sink's worst freshness
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            long minuteAgo = System.currentTimeMillis() - 60_000;
            producer.send(new ProducerRecord<>("act-in", 1, minuteAgo, null, "old".getBytes(StandardCharsets.UTF_8)))
                    .get();
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode freshness = get("/actuator/health")
                    .path("components")
                    .path("streamsplit")
                    .path("details")
                    .path("sinkFreshness")
                    .path("upper");
            assertThat(freshness.path("count").asLong()).isEqualTo(36);
            assertThat(freshness.path("maxMs").asLong()).isBetween(60_000L, 90_000L);
            assertThat(freshness.path("p50Ms").asLong())
                    .as("most records are fresh")
                    .isLessThan(30_000L);
            assertThat(freshness.path("p99Ms").asLong())
                    .as("from the writers' histograms")
                    .isBetween(
                            freshness.path("p50Ms").asLong(),
                            freshness.path("maxMs").asLong());
            assertThat(call(
                                    "GET",
                                    "/actuator/metrics/streamsplit.kafka.sink.freshness.percentile?tag=sink:upper&tag=phi:0.9")
                            .statusCode())
                    .as("the timer's percentiles as Boot configures them")
                    .isEqualTo(200);
            assertThat(call(
                                    "GET",
                                    "/actuator/metrics/streamsplit.kafka.sink.freshness.percentile?tag=sink:upper&tag=phi:0.99")
                            .statusCode())
                    .as("and none by default: published percentiles cost a fifth of a busy pipeline's CPU")
                    .isEqualTo(404);
            JsonNode timer = get("/actuator/metrics/streamsplit.kafka.sink.freshness?tag=sink:upper");
            assertThat(timer.path("baseUnit").asText()).isEqualTo("seconds");
            assertThat(timer.path("measurements").findValues("value").get(0).asDouble())
                    .isEqualTo(36.0);
            assertThat(timer.path("measurements").get(2).path("statistic").asText())
                    .isEqualTo("MAX");
            assertThat(timer.path("measurements").get(2).path("value").asDouble())
                    .isBetween(60.0, 90.0);
        });

        HttpResponse<String> savepoint = call("POST", "/actuator/kafkasplits");
        assertThat(savepoint.statusCode()).isEqualTo(200);
        assertThat(json.readTree(savepoint.body()).path("savepoint").asText())
                .contains(savepoints.toUri().getPath());

        assertThat(String.join("\n", bodies))
                .as("no secret from client properties in any response")
                .doesNotContain("s3cr3t")
                .doesNotContain("jaas")
                .doesNotContain("password");
    }
}
