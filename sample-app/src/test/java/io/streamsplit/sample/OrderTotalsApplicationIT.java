package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The sample as a user starts it: no properties, no Kafka. Dev mode starts the broker, the demo
 * producer writes orders, the job writes totals that the app reads back, and the malformed demo
 * records reach the dead-letter topic.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrderTotalsApplicationIT {

    @Autowired
    CustomerTotalsLog totalsLog;

    @Autowired
    DemoOrderProducer demo;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anyoneMayReadTheJobButOnlyAnOperatorMayPauseAndResumeASource() throws Exception {
        HttpResponse<String> job =
                send(HttpRequest.newBuilder(uri("/actuator/streamsplit")).GET(), null);
        assertThat(job.statusCode()).isEqualTo(200);
        assertThat(job.body()).contains("\"orders\":{\"state\":", "\"controllable\":true");
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/health")).GET(), null)
                        .statusCode())
                .isEqualTo(200);

        assertThat(pause(null).statusCode()).as("no credentials").isEqualTo(401);
        assertThat(pause("operator:guess").statusCode()).as("wrong password").isEqualTo(401);
        HttpResponse<String> paused = pause("operator:operator");
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(paused.body()).contains("\"applied\":true", "\"state\":\"PAUSED\"");

        HttpResponse<String> resumed =
                send(post("{\"operation\":\"resume\",\"source\":\"orders\"}"), "operator:operator");
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
        assertThat(resumed.body()).contains("\"state\":\"RUNNING\"");
    }

    private HttpResponse<String> pause(String credentials) throws Exception {
        return send(post("{\"operation\":\"pause\",\"source\":\"orders\"}"), credentials);
    }

    private HttpRequest.Builder post(String json) {
        return HttpRequest.newBuilder(uri("/actuator/streamsplit"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
    }

    private HttpResponse<String> send(HttpRequest.Builder request, String credentials) throws Exception {
        if (credentials != null) {
            request.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    @Test
    void producesCustomerTotalsWithZeroSetup() {
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(totalsLog.totals()).isNotEmpty());
        assertThat(totalsLog.totals())
                .allSatisfy(total -> assertThat(total)
                        .matches(
                                "\\{\"customer\":\"(alice|bob|carol|dave)\",\"windowStart\":\"[^\"]+\",\"windowEnd\":\"[^\"]+\","
                                        + "\"orders\":[1-9][0-9]*,\"totalCents\":-?[0-9]+}"));
    }
}
