package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The job's life with the application: stopped with a savepoint on shutdown and resumed from it
 * on the next start without re-reading or losing records; and two applications in one JVM, each
 * with its own cluster and job.
 */
class JobLifecycleIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static ConfigurableApplicationContext start(String name, String... properties) {
        return Words.start(KAFKA.bootstrapServers(), name, properties);
    }

    /** Live non-daemon threads that keep a JVM without a web server running for an application. */
    private static long keepAliveThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("streamsplit-keep-alive"))
                .filter(thread -> thread.isAlive() && !thread.isDaemon())
                .count();
    }

    private static List<String> words(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "w" + i).toList();
    }

    private static void awaitOutput(String topic, int count) {
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), topic))
                        .hasSize(count));
    }

    @Test
    void shutdownTakesASavepointAndTheNextStartResumesFromItWithoutLossOrDuplicates(@TempDir Path savepoints)
            throws Exception {
        KAFKA.broker().createTopic("resume-in", 3);
        KAFKA.broker().createTopic("resume-out", 1);
        String savepointDir = savepoints.toUri().toString();
        KafkaTopics.write(KAFKA.bootstrapServers(), "resume-in", words(0, 60));
        long keepingAlive = keepAliveThreads();
        try (ConfigurableApplicationContext first = start(
                "resume",
                "streamsplit.flink.shutdown.savepoint=true",
                "streamsplit.flink.shutdown.savepoint-directory=" + savepointDir)) {
            // an application without a web server (as this one) stays up while its job runs, whatever of
            // Flink's threads are daemons at the moment, and lets the JVM go once it is closed
            assertThat(keepAliveThreads()).isEqualTo(keepingAlive + 1);
            awaitOutput("resume-out", 60);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> keepAliveThreads() == keepingAlive);
        Path savepoint = onlySavepoint(savepoints);

        KafkaTopics.write(KAFKA.bootstrapServers(), "resume-in", words(60, 100));
        try (ConfigurableApplicationContext second =
                start("resume", "streamsplit.flink.restore-path=" + savepoint.toUri())) {
            awaitOutput("resume-out", 100);
            // a start that ignored the savepoint would re-read w0..w59 from the earliest offset
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> KafkaTopics.values(KAFKA.bootstrapServers(), "resume-out")
                                    .size()
                            == 100);
            assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "resume-out"))
                    .containsExactlyInAnyOrderElementsOf(
                            words(0, 100).stream().map(String::toUpperCase).toList());
        }
    }

    /**
     * The config way to rescale: the next run of the application gets another
     * {@code streamsplit.flink.parallelism} and the last run's savepoint; the restored splits are
     * spread over the new readers and every record is written once over the three runs.
     */
    @Test
    void aNewParallelismOnRestartFromASavepointRedistributesTheSplits2To4To1(@TempDir Path savepoints)
            throws Exception {
        KAFKA.broker().createTopic("rescaled-in", 4);
        KAFKA.broker().createTopic("rescaled-out", 1);
        String restore = null;
        int[] parallelisms = {2, 4, 1};
        for (int run = 0; run < parallelisms.length; run++) {
            int parallelism = parallelisms[run];
            KafkaTopics.write(KAFKA.bootstrapServers(), "rescaled-in", words(run * 40, run * 40 + 40));
            Path directory = Files.createDirectory(savepoints.resolve("run-" + run));
            List<String> properties = new java.util.ArrayList<>(List.of(
                    "streamsplit.flink.parallelism=" + parallelism,
                    "streamsplit.flink.embedded.task-slots=4",
                    "streamsplit.flink.shutdown.savepoint=true",
                    "streamsplit.flink.shutdown.savepoint-directory=" + directory.toUri()));
            if (restore != null) {
                properties.add("streamsplit.flink.restore-path=" + restore);
            }
            try (ConfigurableApplicationContext app = start("rescaled", properties.toArray(String[]::new))) {
                awaitOutput("rescaled-out", run * 40 + 40);
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(app.getBean(io.streamsplit.boot.actuate.KafkaSplitStates.class)
                                        .read()
                                        .sources()
                                        .get("words")
                                        .splits())
                                .as("4 partitions over " + parallelism + " readers")
                                .hasSize(4)
                                .extracting(split -> split.readerSubtask())
                                .containsOnly(
                                        IntStream.range(0, parallelism).boxed().toArray(Integer[]::new))
                                .containsAll(
                                        IntStream.range(0, parallelism).boxed().toList()));
            }
            restore = onlySavepoint(directory).toUri().toString();
        }
        assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "rescaled-out"))
                .containsExactlyInAnyOrderElementsOf(
                        words(0, 120).stream().map(String::toUpperCase).toList());
    }

    @Test
    void twoApplicationsInOneJvmEachRunAndSeeOnlyTheirOwnJob() throws Exception {
        KAFKA.broker().createTopic("left-in", 2);
        KAFKA.broker().createTopic("left-out", 1);
        KAFKA.broker().createTopic("right-in", 2);
        KAFKA.broker().createTopic("right-out", 1);
        try (ConfigurableApplicationContext left = start("left");
                ConfigurableApplicationContext right = start("right")) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "left-in", words(0, 10));
            KafkaTopics.write(KAFKA.bootstrapServers(), "right-in", words(100, 120));
            awaitOutput("left-out", 10);
            awaitOutput("right-out", 20);
            for (ConfigurableApplicationContext context : List.of(left, right)) {
                JobClient client = context.getBean(JobClient.class);
                assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
                List<JobStatusMessage> jobs = List.copyOf(context.getBean(EmbeddedFlinkCluster.class)
                        .miniCluster()
                        .listJobs()
                        .get());
                assertThat(jobs).extracting(JobStatusMessage::getJobId).containsExactly(client.getJobID());
            }
            assertThat(left.getBean(EmbeddedFlinkCluster.class).restAddress())
                    .isNotEqualTo(right.getBean(EmbeddedFlinkCluster.class).restAddress());
        }
    }

    private static Path onlySavepoint(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            List<Path> found = entries.filter(p -> p.getFileName().toString().startsWith("savepoint-"))
                    .toList();
            assertThat(found).as("one savepoint written on shutdown").hasSize(1);
            return found.get(0);
        }
    }
}
