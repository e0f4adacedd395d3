package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.AutoscalerView;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The packaged sample handed to Flink as an application (what the Flink Kubernetes Operator does with
 * a {@code FlinkDeployment}'s jar): the executable jar extracted with Spring Boot's own
 * {@code -Djarmode=tools extract} into the cluster's {@code usrlib/}, and Flink's
 * {@code StandaloneApplicationClusterEntryPoint} runs its main in the JobManager. No setting tells the
 * application it runs in application mode; the job's classes load on a TaskManager JVM that has only
 * Flink's jars.
 */
class OrderTotalsApplicationModeIT {

    private static final Path FAT_JAR = Path.of("target", "streamsplit-sample-app-exec.jar");

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private StandaloneFlinkCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void flinkRunsTheSampleJarAsAnApplicationWithExactTotals() throws Exception {
        for (String topic : List.of("orders", "refunds", "customer-totals", "orders.DLT")) {
            KAFKA.broker().createTopic(topic, 2, Map.of("retention.ms", "-1"));
        }
        Path layout = extract();
        long start = System.nanoTime();
        cluster = StandaloneFlinkCluster.builder()
                .taskSlots(2)
                .config("metrics.fetcher.update-interval", "500 ms")
                .application(
                        "io.streamsplit.sample.OrderTotalsApplication",
                        layout,
                        "--sample.demo-data.enabled=false",
                        "--streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers())
                .start();
        Path jobManagerLog = cluster.workDir().resolve("jobmanager.log");

        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
            assertThat(cluster.isJobManagerAlive())
                    .as("the JobManager runs (see %s)", jobManagerLog)
                    .isTrue();
            assertThat(cluster.get("/jobs/overview"))
                    .contains("\"name\":\"order-totals\"")
                    .contains("\"state\":\"RUNNING\"");
        });
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(Files.readString(jobManagerLog))
                        .contains("Submitted Flink job 'order-totals'")
                        .contains("to the Flink cluster that started the application"));
        assertThat(Files.readString(jobManagerLog)).doesNotContain("Started embedded Flink MiniCluster");

        OneWindowOfOrders.produce(KAFKA.bootstrapServers());
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(
                        () -> assertThat(totals()).containsExactlyInAnyOrderElementsOf(OneWindowOfOrders.TOTALS));
        // the bad-record policy as everywhere: the line that is not an order went to the dead-letter topic
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(values("orders.DLT")).containsExactly("not an order"));
        System.out.printf(
                "application mode: cluster start to exact totals in %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));

        // what the operator's autoscaler reads, on the cluster the operator would manage
        String jobId = jobId();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, AutoscalerView.Source> sources = AutoscalerView.read(cluster, jobId);
            assertThat(sources.values())
                    .anySatisfy(s -> assertThat(s.partitions()).containsExactlyInAnyOrder("orders-0", "orders-1"))
                    .anySatisfy(s -> assertThat(s.partitions()).containsExactlyInAnyOrder("refunds-0", "refunds-1"))
                    .allSatisfy(s -> assertThat(s.pendingRecordsMetrics()).isNotEmpty());
        });
    }

    /** The executable jar as Spring Boot extracts it: the application's jar and lib/ next to it. */
    static Path extract() throws Exception {
        assertThat(FAT_JAR).as("the repackaged sample (mvn package builds it)").exists();
        Path layout = Path.of("target", "application-mode-layout").toAbsolutePath();
        if (Files.exists(layout)) {
            try (Stream<Path> old = Files.walk(layout)) {
                old.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
        Process extract = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Djarmode=tools",
                        "-jar",
                        FAT_JAR.toString(),
                        "extract",
                        "--destination",
                        layout.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(extract.getInputStream().readAllBytes());
        assertThat(extract.waitFor()).as("extract: %s", output).isZero();
        return layout;
    }

    private static List<String> totals() {
        return values("customer-totals");
    }

    private static List<String> values(String topic) {
        return OneWindowOfOrders.values(KAFKA.bootstrapServers(), topic);
    }

    private String jobId() {
        String jobs = cluster.get("/jobs/overview");
        Matcher id = Pattern.compile("\"jid\":\"([0-9a-f]{32})\",\"name\":\"order-totals\"")
                .matcher(jobs);
        assertThat(id.find()).as("job order-totals on the cluster: %s", jobs).isTrue();
        return id.group(1);
    }
}
