package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A harness, not a CI test: the sample started the three ways, one after the other in one run, each
 * with its input already waiting — embedded ({@code java -jar}), on a session cluster (the cluster
 * started, then the application with {@code java -jar} in remote mode) and in application mode (the
 * cluster runs the jar) — and the time from the first process start to the first total downstream.
 *
 * <pre>
 * mvn -B -o verify -pl sample-app -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dit.test=StartToFirstOutputIT -Dstartup.compare=true
 * </pre>
 */
@EnabledIfSystemProperty(
        named = "startup.compare",
        matches = "true",
        disabledReason = "a harness: -Dstartup.compare=true")
class StartToFirstOutputIT {

    private static final Path FAT_JAR = Path.of("target", "streamsplit-sample-app-exec.jar");
    private static final String MAIN = "io.streamsplit.sample.OrderTotalsApplication";

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void embeddedSessionAndApplicationMode() throws Exception {
        Map<String, Long> firstOutput = new LinkedHashMap<>();
        Path layout = OrderTotalsApplicationModeIT.extract();

        String suffix = topics("-embedded");
        long start = System.nanoTime();
        Process app = javaJar(suffix, "--streamsplit.flink.mode=embedded");
        try {
            firstOutput.put("embedded: java -jar", awaitFirstTotal(suffix, start));
        } finally {
            stop(app);
        }

        suffix = topics("-session");
        start = System.nanoTime();
        try (StandaloneFlinkCluster session =
                StandaloneFlinkCluster.builder().taskSlots(2).start()) {
            app = javaJar(
                    suffix,
                    "--streamsplit.flink.mode=remote",
                    "--streamsplit.flink.remote.host=localhost",
                    "--streamsplit.flink.remote.port=" + session.restPort(),
                    "--streamsplit.flink.shutdown.job=cancel");
            try {
                firstOutput.put("session cluster + java -jar (remote)", awaitFirstTotal(suffix, start));
            } finally {
                stop(app);
            }
        }

        suffix = topics("-application");
        start = System.nanoTime();
        try (StandaloneFlinkCluster application = StandaloneFlinkCluster.builder()
                .taskSlots(2)
                .application(MAIN, layout, args(suffix).toArray(String[]::new))
                .start()) {
            firstOutput.put("application cluster (Flink runs the jar)", awaitFirstTotal(suffix, start));
        }

        StringBuilder table =
                new StringBuilder("| how the sample runs | first process start to first total |\n| --- | --- |\n");
        firstOutput.forEach((how, ms) -> table.append("| ")
                .append(how)
                .append(" | ")
                .append(String.format("%.1f s", ms / 1000.0))
                .append(" |\n"));
        System.out.println(table);
        assertThat(firstOutput).hasSize(3);
    }

    /** Creates this mode's topics and writes the input to them; returns the suffix of their names. */
    private static String topics(String suffix) throws Exception {
        for (String topic : List.of("orders", "refunds", "customer-totals", "orders.DLT")) {
            KAFKA.broker().createTopic(topic + suffix, 2, Map.of("retention.ms", "-1"));
        }
        OneWindowOfOrders.produce(KAFKA.bootstrapServers(), suffix);
        return suffix;
    }

    private static List<String> args(String suffix) {
        return List.of(
                "--sample.demo-data.enabled=false",
                "--streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                "--streamsplit.kafka.sources.orders.topics=orders" + suffix,
                "--streamsplit.kafka.sources.orders.dead-letter-topic=orders.DLT" + suffix,
                "--streamsplit.kafka.sources.refunds.topics=refunds" + suffix,
                "--streamsplit.kafka.sinks.totals.topic=customer-totals" + suffix);
    }

    private static Process javaJar(String suffix, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir="
                        + Files.createDirectories(Path.of("target", "tmp")).toAbsolutePath(),
                "-jar",
                FAT_JAR.toString(),
                "--server.port=0"));
        command.addAll(args(suffix));
        command.addAll(List.of(more));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(Path.of("target", "start-to-first-output" + suffix + ".log")
                        .toFile())
                .start();
    }

    /** Polls the totals topic until its first record; returns the milliseconds since {@code start}. */
    private static long awaitFirstTotal(String suffix, long start) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(
                    new TopicPartition("customer-totals" + suffix, 0),
                    new TopicPartition("customer-totals" + suffix, 1)));
            long[] at = new long[1];
            List<String> totals = new ArrayList<>();
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(50)).forEach(record -> {
                            if (totals.isEmpty()) {
                                at[0] = System.nanoTime();
                            }
                            totals.add(record.value());
                        });
                        return totals.size() >= OneWindowOfOrders.TOTALS.size();
                    });
            assertThat(totals).containsExactlyInAnyOrderElementsOf(OneWindowOfOrders.TOTALS);
            return (at[0] - start) / 1_000_000;
        }
    }

    private static void stop(Process app) throws InterruptedException {
        app.destroy();
        if (!app.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            app.destroyForcibly();
        }
    }
}
