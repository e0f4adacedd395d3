package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Kubernetes' probes as docs/kubernetes.md sets them (readiness includes {@code streamsplit}, liveness does not),
 * over a real HTTP port: liveness is UP whatever the job does; readiness is UP once the job checkpoints, stays
 * OUT_OF_SERVICE (503) for a job that cannot make progress, and, with {@code streamsplit.health.max-lag}, for one
 * that is further behind than that.
 */
class ProbesIT {

    // as many production clusters: a topic nobody created does not appear on first use
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA =
            new EmbeddedKafkaExtension(broker -> broker.brokerProperty("auto.create.topics.enable", "false"));

    private static final String[] PROBES = {
        "management.endpoint.health.probes.enabled=true",
        "management.endpoint.health.group.readiness.include=readinessState,streamsplit"
    };

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void livenessNeverDependsOnTheJobAndReadinessWaitsForProgress() throws Exception {
        KAFKA.broker().createTopic("probes-in", 1);
        KAFKA.broker().createTopic("probes-out", 1);
        try (ConfigurableApplicationContext app = start("probes")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> status(app, "readiness") == 200);
            assertThat(status(app, "liveness")).isEqualTo(200);
        }
        // the sink's topic does not exist: the job restarts at its first record and never checkpoints
        KAFKA.broker().createTopic("stuck-in", 1);
        KafkaTopics.write(KAFKA.bootstrapServers(), "stuck-in", List.of("a"));
        try (ConfigurableApplicationContext app =
                start("stuck", "streamsplit.kafka.sinks.upper.properties.max.block.ms=2000")) {
            await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(30)).until(() -> {
                assertThat(status(app, "liveness")).as("liveness").isEqualTo(200);
                return status(app, "readiness") == 503;
            });
        }
    }

    @Test
    void aSourceFurtherBehindThanMaxLagIsNotReadyWhileItCatchesUp() throws Exception {
        KAFKA.broker().createTopic("behind-in", 1);
        KAFKA.broker().createTopic("behind-out", 1);
        KafkaTopics.write(
                KAFKA.bootstrapServers(),
                "behind-in",
                IntStream.range(0, 300).mapToObj(i -> "word-" + i).toList());
        try (ConfigurableApplicationContext app = start(
                "behind",
                "streamsplit.health.max-lag=50",
                "streamsplit.kafka.sources.words.max-records-per-second=20")) {
            StreamSplitHealthIndicator health = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> String.valueOf(health.health().getDetails().get("reason"))
                            .contains("records behind its topics (limit 50, streamsplit.health.max-lag)"));
            assertThat(status(app, "readiness")).isEqualTo(503);
            assertThat(status(app, "liveness")).isEqualTo(200);
        }
    }

    private static ConfigurableApplicationContext start(String name, String... more) {
        String[] properties =
                Stream.of(HealthOverHttp.WEB, PROBES, more).flatMap(Stream::of).toArray(String[]::new);
        return Words.start(KAFKA.bootstrapServers(), name, properties);
    }

    private int status(ConfigurableApplicationContext app, String probe) throws Exception {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/" + probe))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
