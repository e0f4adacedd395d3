package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.WebOperationRequestPredicate;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The sample as a user starts it: no Kafka, only the operator's password. Dev mode starts the broker, the
 * demo producer writes orders, the job writes totals that the app reads back, and the malformed demo
 * records reach the dead-letter topic. Every endpoint is exposed here, so that the security recipe is
 * checked against every write operation StreamSplit has.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.security.user.password=" + OrderTotalsApplicationIT.PASSWORD,
            "management.endpoints.web.exposure.include=*"
        })
class OrderTotalsApplicationIT {

    static final String PASSWORD = "it-operator-secret";
    private static final String OPERATOR = "operator:" + PASSWORD;

    @Autowired
    WebEndpointsSupplier endpoints;

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
        HttpResponse<String> paused = pause(OPERATOR);
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(paused.body()).contains("\"applied\":true", "\"state\":\"PAUSED\"");

        HttpResponse<String> resumed = send(post("{\"operation\":\"resume\",\"source\":\"orders\"}"), OPERATOR);
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
        assertThat(resumed.body()).contains("\"state\":\"RUNNING\"");
    }

    /**
     * Every write operation of every StreamSplit endpoint, as Actuator discovered them (so one added later is
     * walked too), answers 401 without credentials: the documented recipe leaves none of them open.
     */
    @Test
    void everyWriteOperationOfEveryStreamSplitEndpointNeedsTheOperator() throws Exception {
        List<String> walked = new ArrayList<>();
        for (ExposableWebEndpoint endpoint : endpoints.getEndpoints()) {
            if (!endpoint.getEndpointId().toString().matches("streamsplit|kafkasplits|deadletters")) {
                continue;
            }
            for (WebOperation operation : endpoint.getOperations()) {
                if (operation.getType() == OperationType.READ) {
                    continue;
                }
                WebOperationRequestPredicate predicate = operation.getRequestPredicate();
                String path = "/actuator/" + predicate.getPath().replaceAll("\\{[^}]*}", "orders");
                HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .method(predicate.getHttpMethod().name(), HttpRequest.BodyPublishers.ofString("{}"));
                HttpResponse<String> answer = send(request, null);
                walked.add(predicate.getHttpMethod() + " " + path + " -> " + answer.statusCode());
                assertThat(answer.statusCode())
                        .as("%s %s without credentials", predicate.getHttpMethod(), path)
                        .isEqualTo(401);
            }
        }
        assertThat(walked)
                .as("the write operations found")
                .anyMatch(line -> line.startsWith("POST /actuator/streamsplit "))
                .anyMatch(line -> line.startsWith("POST /actuator/kafkasplits "))
                .anyMatch(line -> line.contains("/actuator/deadletters"));
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
