package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.AutoscalerView;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The packaged sample, started the way it is deployed ({@code java -jar}), in remote mode against a
 * standalone Flink cluster in two other JVMs that have only Flink's jars: the application's classes
 * come out of the fat jar's {@code BOOT-INF/} and travel with the job. Totals must be exact, the split
 * endpoint must show the cluster's splits, and the job must outlive the application's graceful stop.
 */
class OrderTotalsFatJarRemoteIT {

    private static final Path FAT_JAR = Path.of("target", "streamsplit-sample-app-exec.jar");

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private StandaloneFlinkCluster cluster;
    private Process app;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void startClusterAndTopics() {
        cluster = StandaloneFlinkCluster.builder()
                .taskSlots(2)
                .config("metrics.fetcher.update-interval", "500 ms")
                .start();
        for (String topic : List.of("orders", "refunds", "customer-totals", "orders.DLT")) {
            // the fixture's records carry 2023 event times: time-based retention deletes them as soon as
            // the broker checks, and a consumer that had not read them yet then resets past them
            KAFKA.broker().createTopic(topic, 2, Map.of("retention.ms", "-1"));
        }
    }

    @AfterEach
    void stopEverything() {
        if (app != null) {
            app.descendants().forEach(ProcessHandle::destroyForcibly);
            app.destroyForcibly();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theFatJarRunsItsPipelineOnTheClusterWithExactTotals() throws Exception {
        assertThat(FAT_JAR).as("the repackaged sample (mvn package builds it)").exists();
        int port = freePort();
        Path log = Path.of("target", "fat-jar-remote-app.log");
        app = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m",
                        "-Djava.io.tmpdir="
                                + Files.createDirectories(Path.of("target", "tmp"))
                                        .toAbsolutePath(),
                        "-jar",
                        FAT_JAR.toString(),
                        "--server.port=" + port,
                        // demo data left on: pointed at a Kafka it did not start, the sample writes none
                        "--streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                        "--streamsplit.flink.mode=remote",
                        "--streamsplit.flink.remote.host=localhost",
                        "--streamsplit.flink.remote.port=" + cluster.restPort())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();

        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
            assertThat(app.isAlive()).as("the application is up (see %s)", log).isTrue();
            assertThat(jobs()).contains("\"name\":\"order-totals\"").contains("\"state\":\"RUNNING\"");
        });
        // the demo data is decided once the application is ready, which may come after the job runs
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(Files.readString(log))
                        .contains("Jars for the Flink cluster:")
                        .contains(
                                "No demo data: Kafka at " + KAFKA.bootstrapServers() + " is not the dev-mode broker"));

        OneWindowOfOrders.produce(KAFKA.bootstrapServers());
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(
                        () -> assertThat(totals()).containsExactlyInAnyOrderElementsOf(OneWindowOfOrders.TOTALS));

        // split state comes from the cluster's REST API
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            String splits = get("http://localhost:" + port + "/actuator/kafkasplits/orders");
            assertThat(splits)
                    .contains("\"mode\":\"remote\"")
                    .contains("\"status\":\"RUNNING\"")
                    .contains("\"assignedSplits\":2")
                    .contains("\"lag\":0");
            assertThat(count(splits, "\"topic\":\"orders\",\"partition\":")).isEqualTo(2);
        });

        String jobId = jobId();
        // the Flink Kubernetes Operator's autoscaler bounds a Kafka source's parallelism by the partitions
        // it finds in the source's metric names and reads its backlog from pendingRecords: both are there
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, AutoscalerView.Source> sources = AutoscalerView.read(cluster, jobId);
            assertThat(sources).hasSize(2);
            AutoscalerView.Source orders = sources.values().stream()
                    .filter(s -> s.partitions().stream().anyMatch(p -> p.startsWith("orders-")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no source vertex reports orders partitions: " + sources));
            assertThat(orders.partitions()).containsExactlyInAnyOrder("orders-0", "orders-1");
            assertThat(orders.pendingRecordsMetrics()).isNotEmpty();
            assertThat(orders.backlog()).isZero();
            assertThat(sources.values())
                    .anySatisfy(s -> assertThat(s.partitions()).containsExactlyInAnyOrder("refunds-0", "refunds-1"));
        });
        app.destroy(); // SIGTERM: Spring's graceful shutdown; on a cluster the job outlives the application
        assertThat(app.waitFor(60, TimeUnit.SECONDS))
                .as("the application exits")
                .isTrue();
        assertThat(Files.readString(log)).contains("Flink job 'order-totals' (" + jobId + ") keeps running");
        assertThat(cluster.jobState(jobId)).isEqualTo("RUNNING");
    }

    private List<String> totals() {
        return OneWindowOfOrders.values(KAFKA.bootstrapServers(), "customer-totals");
    }

    private String jobs() {
        return cluster.get("/jobs/overview");
    }

    private String jobId() {
        Matcher id = Pattern.compile("\"jid\":\"([0-9a-f]{32})\",\"name\":\"order-totals\"")
                .matcher(jobs());
        assertThat(id.find()).as("job order-totals on the cluster: %s", jobs()).isTrue();
        return id.group(1);
    }

    private String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
        return response.body();
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
