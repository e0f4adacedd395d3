package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Health over a real HTTP port never says UP for a job that cannot make progress: with Kafka away
 * (started anyway, {@code startup-check.mode: warn}) the sequence of statuses has no UP; with a sink
 * topic that does not exist, no UP after the first failure. Both end DOWN, with the reason in the
 * application's terms.
 */
@ExtendWith(OutputCaptureExtension.class)
class HonestHealthIT {

    // as many production clusters: a topic nobody created does not appear on first use
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA =
            new EmbeddedKafkaExtension(broker -> broker.brokerProperty("auto.create.topics.enable", "false"));

    private static final String[] WEB = {
        "spring.main.web-application-type=servlet",
        "server.port=0",
        "management.endpoints.web.exposure.include=health",
        "management.endpoint.health.show-details=always",
        "streamsplit.kafka.startup-check.mode=warn",
        "streamsplit.flink.parallelism=1",
        "streamsplit.flink.checkpointing.interval=1s",
        "streamsplit.health.startup-grace=4s",
        "streamsplit.flink.restart.strategy=fixed-delay",
        "streamsplit.flink.restart.attempts=100",
        "streamsplit.flink.restart.delay=1s"
    };

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    private JsonNode health(ConfigurableApplicationContext app) throws Exception {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/streamsplit"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return json.readTree(response.body());
    }

    /** Polls health until DOWN; returns the statuses seen, in order, and checks the last reason. */
    private List<String> untilDown(ConfigurableApplicationContext app, String... reasonContains) {
        List<String> statuses = new ArrayList<>();
        JsonNode[] last = new JsonNode[1];
        try {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        last[0] = health(app);
                        String status = last[0].path("status").asText();
                        if (statuses.isEmpty()
                                || !statuses.get(statuses.size() - 1).equals(status)) {
                            statuses.add(status);
                        }
                        return status.equals("DOWN");
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("health never went DOWN; statuses " + statuses + ", last " + last[0], e);
        }
        assertThat(last[0].path("details").path("reason").asText())
                .as(last[0].toString())
                .contains(reasonContains);
        return statuses;
    }

    @Test
    void kafkaThatDoesNotAnswerIsDownWithTheReasonNotUp() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (ConfigurableApplicationContext app = Words.start("localhost:" + port, "away", WEB)) {
            assertThat(untilDown(app, "source 'words' has not found its partitions", "localhost:" + port))
                    .doesNotContain("UP");
            assertThat(health(app).path("details").path("kafkaProblems").get(0).asText())
                    .contains("no Kafka broker answered at localhost:" + port);
        }
    }

    @Test
    void aSinkTopicThatDoesNotExistIsDownNamingTheSink(CapturedOutput output) throws Exception {
        KAFKA.broker().createTopic("nosink-in", 1);
        // the producer gives up on the missing topic after 3 s instead of Kafka's 60 s
        String[] properties = Stream.concat(
                        Arrays.stream(WEB), Stream.of("streamsplit.kafka.sinks.upper.properties.max.block.ms=3000"))
                .toArray(String[]::new);
        // written before the job starts: the sink blocks on its first record, before any checkpoint
        KafkaTopics.write(KAFKA.bootstrapServers(), "nosink-in", List.of("a"));
        try (ConfigurableApplicationContext app = Words.start(KAFKA.bootstrapServers(), "nosink", properties)) {
            List<String> statuses =
                    untilDown(app, "no checkpoint has completed", "sink 'upper' writes to topic 'nosink-out'");
            // UP is honest only until the first record reaches the sink; once the job failed, never again
            assertThat(statuses.subList(statuses.indexOf("OUT_OF_SERVICE") + 1, statuses.size()))
                    .as("statuses after the first failure, of %s", statuses)
                    .doesNotContain("UP");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> health(app).path("details").path("restarts").asLong() >= 2);
        }
        // the failure in the application's terms, once, however often the job restarted
        assertThat(output.getAll()
                        .lines()
                        .filter(line -> line.contains("ERROR")
                                && line.contains(
                                        "Flink job 'nosink' failed: sink 'upper' writes to topic 'nosink-out'")))
                .hasSize(1);
    }
}
