package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The StreamSplit health of an application as a client sees it, over its real HTTP port: what the
 * honest-health tests start their applications with, one read, and the statuses seen until DOWN.
 */
final class HealthOverHttp {

    /** Web, health with details, startup checks that only warn, and a job that restarts every second. */
    static final String[] WEB = {
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

    /** GET /actuator/health/streamsplit. */
    JsonNode read(ConfigurableApplicationContext app) throws Exception {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/streamsplit"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return json.readTree(response.body());
    }

    /** Polls health until DOWN; returns the statuses seen, in order, and checks the last reason. */
    List<String> untilDown(ConfigurableApplicationContext app, String... reasonContains) {
        List<String> statuses = new ArrayList<>();
        JsonNode[] last = new JsonNode[1];
        try {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        last[0] = read(app);
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
}
