package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Grafana dashboard in {@code docs/grafana} against a real Prometheus (Debian's {@code
 * prometheus}; {@code .ci/run} installs it) scraping the sample as a user runs it: every query of
 * every panel, evaluated through Prometheus's HTTP API, returns at least one number — so a renamed
 * meter or a wrong label shows here, not as an empty panel in production.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DashboardIT {

    private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "streamsplit-dashboard.json");

    @LocalServerPort
    int port;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void everyPanelOfTheDashboardShowsDataFromARealPrometheus() throws Exception {
        Path binary = prometheus();
        List<String> queries = new ArrayList<>();
        Map<String, List<String>> panels = new java.util.LinkedHashMap<>();
        for (JsonNode panel : json.readTree(DASHBOARD.toFile()).path("panels")) {
            List<String> exprs = new ArrayList<>();
            for (JsonNode target : panel.path("targets")) {
                exprs.add(target.path("expr").asString());
            }
            queries.addAll(exprs);
            panels.put(panel.path("title").asString(), exprs);
        }
        assertThat(queries).hasSizeGreaterThanOrEqualTo(9);

        int prometheusPort = freePort();
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: sample
                    metrics_path: /actuator/prometheus
                    static_configs:
                      - targets: ["localhost:%d"]
                """.formatted(port));
        Process prometheus = new ProcessBuilder(
                        binary.toString(),
                        "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + prometheusPort)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        try {
            String base = "http://127.0.0.1:" + prometheusPort;
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() -> get(base + "/-/ready").statusCode() == 200);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(
                            () -> assertThat(values(base, "up{job=\"sample\"}")).containsExactly(1.0));
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                Map<String, List<Double>> empty = new TreeMap<>();
                for (String query : queries) {
                    List<Double> numbers = values(base, query).stream()
                            .filter(Double::isFinite)
                            .toList();
                    if (numbers.isEmpty()) {
                        empty.put(query, numbers);
                    }
                }
                assertThat(empty).as("panel queries without a number").isEmpty();
            });
            drawPicture(base, panels);
        } finally {
            prometheus.destroy();
            prometheus.waitFor();
        }
    }

    /**
     * The same queries plotted, as the dashboard would show them: {@code target/dashboard.svg}, and
     * with {@code -Ddashboard.picture=<path>} (after that many seconds more of data,
     * {@code -Ddashboard.seconds}, default 60) also there — how docs/grafana/dashboard.svg is made.
     */
    private void drawPicture(String base, Map<String, List<String>> panels) throws Exception {
        String picture = System.getProperty("dashboard.picture");
        if (picture != null) {
            Thread.sleep(Long.getLong("dashboard.seconds", 60) * 1000);
        }
        long end = System.currentTimeMillis() / 1000;
        Map<String, List<List<double[]>>> series = new java.util.LinkedHashMap<>();
        for (var panel : panels.entrySet()) {
            List<List<double[]>> lines = new ArrayList<>();
            for (String query : panel.getValue()) {
                HttpResponse<String> response = get(base + "/api/v1/query_range?start=" + (end - 600) + "&end=" + end
                        + "&step=1&query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
                for (JsonNode result :
                        json.readTree(response.body()).path("data").path("result")) {
                    List<double[]> points = new ArrayList<>();
                    for (JsonNode value : result.path("values")) {
                        double y = Double.parseDouble(value.path(1).asString());
                        if (Double.isFinite(y)) {
                            points.add(new double[] {value.path(0).asDouble(), y});
                        }
                    }
                    lines.add(points);
                }
            }
            series.put(panel.getKey(), lines);
        }
        String svg = DashboardPicture.draw(series);
        Files.writeString(Path.of("target", "dashboard.svg"), svg);
        if (picture != null) {
            Files.writeString(Path.of(picture), svg);
        }
    }

    /** The sample values of an instant query. */
    private List<Double> values(String base, String query) throws Exception {
        HttpResponse<String> response =
                get(base + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        JsonNode body = json.readTree(response.body());
        assertThat(body.path("status").asString())
                .as(query + ": " + response.body())
                .isEqualTo("success");
        List<Double> values = new ArrayList<>();
        for (JsonNode series : body.path("data").path("result")) {
            values.add(Double.parseDouble(series.path("value").path(1).asString()));
        }
        return values;
    }

    private HttpResponse<String> get(String uri) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Path prometheus() {
        Path found = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .map(directory -> Path.of(directory, "prometheus"))
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        Assumptions.assumeTrue(
                found != null,
                "no prometheus on the PATH: install Debian's package (apt-get install prometheus; .ci/run does)");
        return found;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
