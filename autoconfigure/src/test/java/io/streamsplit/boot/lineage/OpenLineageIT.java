package io.streamsplit.boot.lineage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.job.step.StepsApplication;
import io.streamsplit.connector.kafka.lineage.KafkaLineage;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * OpenLineage from {@code application.yml}: with the file transport the application writes the job's run events
 * — START when submitted, RUNNING, and COMPLETE when it stops with the application (with a savepoint: Flink says
 * FINISHED) or ABORT (cancelled when the savepoint did not finish in time) — each naming the job, its run and
 * the datasets it reads (the source's topic) and writes (the sink's topic and the step's dead-letter topic); a
 * file transport without a file is refused at start-up.
 */
class OpenLineageIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static SpringApplicationBuilder app(String run, String... properties) {
        return new SpringApplicationBuilder(StepsApplication.class)
                .web(WebApplicationType.NONE)
                .properties(StepsApplication.properties(run, KAFKA.bootstrapServers()))
                .properties(
                        "test.fail-every=100",
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.processing-errors.policy=dead-letter",
                        "streamsplit.processing-errors.retries=0",
                        "streamsplit.processing-errors.dead-letter-topic=" + run + ".DLT")
                .properties(properties);
    }

    @Test
    void theJobsRunEventsGoToTheFileWithItsDatasets(@TempDir Path dir) throws Exception {
        String run = "lineage";
        KAFKA.broker().createTopic(run + "-in", 1);
        KAFKA.broker().createTopic(run + "-out", 1);
        KAFKA.broker().createTopic(run + ".DLT", 1);
        KafkaTopics.write(
                KAFKA.bootstrapServers(),
                run + "-in",
                IntStream.range(0, 300).mapToObj(i -> "id-" + i).toList());
        Path events = dir.resolve("lineage.jsonl");
        try (ConfigurableApplicationContext context = app(
                        run,
                        "streamsplit.lineage.openlineage.transport=file",
                        "streamsplit.lineage.openlineage.location=" + events,
                        "streamsplit.lineage.openlineage.namespace=orders-platform")
                .run()) {
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(types(events)).containsSubsequence("START", "RUNNING"));
        }
        // the end: COMPLETE when the shutdown's savepoint finished the job (FINISHED), ABORT when it had to cancel it
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(types(events))
                        .isIn(List.of("START", "RUNNING", "COMPLETE"), List.of("START", "RUNNING", "ABORT")));
        String cluster = KafkaLineage.namespace(KAFKA.bootstrapServers());
        for (JsonNode event : read(events)) {
            assertThat(event.path("job").path("namespace").asText()).isEqualTo("orders-platform");
            assertThat(event.path("job").path("name").asText()).isEqualTo(run);
            assertThat(event.path("run").path("runId").asText())
                    .isEqualTo(read(events).get(0).path("run").path("runId").asText());
            assertThat(event.path("inputs")).hasSize(1);
            assertThat(event.path("inputs").get(0).path("namespace").asText()).isEqualTo(cluster);
            assertThat(event.path("inputs").get(0).path("name").asText()).isEqualTo(run + "-in");
            List<String> outputs = new ArrayList<>();
            event.path("outputs")
                    .forEach(o -> outputs.add(
                            o.path("namespace").asText() + "/" + o.path("name").asText()));
            assertThat(outputs).containsExactlyInAnyOrder(cluster + "/" + run + "-out", cluster + "/" + run + ".DLT");
        }
    }

    @Test
    void theHttpTransportPostsTheEventsToTheLineageServer() throws Exception {
        String run = "lineage-http";
        KAFKA.broker().createTopic(run + "-in", 1);
        KAFKA.broker().createTopic(run + "-out", 1);
        KAFKA.broker().createTopic(run + ".DLT", 1);
        List<String> posted = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer server =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/lineage", exchange -> {
            posted.add(new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        server.start();
        try (ConfigurableApplicationContext context = app(
                        run,
                        "streamsplit.lineage.openlineage.transport=http",
                        "streamsplit.lineage.openlineage.url=http://127.0.0.1:"
                                + server.getAddress().getPort())
                .run()) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                List<String> types = new ArrayList<>();
                for (String body : posted) {
                    types.add(
                            new ObjectMapper().readTree(body).path("eventType").asText());
                }
                assertThat(types).containsSubsequence("START", "RUNNING");
            });
            JsonNode start = new ObjectMapper().readTree(posted.get(0));
            assertThat(start.path("job").path("namespace").asText()).isEqualTo("streamsplit");
            assertThat(start.path("inputs").get(0).path("name").asText()).isEqualTo(run + "-in");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aFileTransportWithoutAFileIsRefused() {
        Throwable failure =
                catchThrowable(() -> app("lineage-refused", "streamsplit.lineage.openlineage.transport=file")
                        .run()
                        .close());
        FailureAnalysis analysis = FailureReports.analyze(failure);
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("streamsplit.lineage.openlineage.location");
        assertThat(analysis.getAction()).contains("/var/log/streamsplit/lineage.jsonl");
    }

    private static List<JsonNode> read(Path events) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        if (Files.exists(events)) {
            ObjectMapper json = new ObjectMapper();
            for (String line : Files.readAllLines(events)) {
                if (!line.isBlank()) {
                    nodes.add(json.readTree(line));
                }
            }
        }
        return nodes;
    }

    private static List<String> types(Path events) throws Exception {
        return read(events).stream().map(e -> e.path("eventType").asText()).toList();
    }
}
