package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.connector.kafka.source.savepoint.CheckpointedOffsets;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An embedded app with checkpoint storage resumes from its retained checkpoint, but not from one whose
 * offsets no longer fit Kafka: after its input topic was deleted and recreated, startup fails with a
 * report naming the partitions, and {@code on-stale-checkpoint: start-fresh} moves the checkpoints
 * aside and reads the new topic from the start.
 */
class StaleCheckpointIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @TempDir
    Path checkpoints;

    @Test
    void aCheckpointOfDeletedAndRecreatedTopicsIsNotResumedSilently() throws Exception {
        KAFKA.broker().createTopic("stale-in", 2);
        KAFKA.broker().createTopic("stale-out", 1);
        String storage = "streamsplit.flink.checkpointing.storage=" + checkpoints.toUri();
        KafkaTopics.write(KAFKA.bootstrapServers(), "stale-in", List.of("a", "b", "c", "d", "e", "f"));
        // cancelled at the end, as a crash leaves it: its retained checkpoint is what the next start finds (a clean
        // stop's savepoint would be, by default)
        try (ConfigurableApplicationContext app =
                Words.start(KAFKA.bootstrapServers(), "stale", storage, "streamsplit.flink.shutdown.job=cancel")) {
            // committed on checkpoint completion: once all six are committed, a retained checkpoint holds them
            await().atMost(Duration.ofSeconds(60)).until(() -> committed("stale") == 6);
        }
        // the first run of job 'stale': generation 1 of its identity
        Path jobDirectory = checkpoints.resolve(JobIdentity.of("stale").jobId(1).toHexString());
        Path newest = newestCheckpoint(jobDirectory);
        assertThat(CheckpointedOffsets.read(newest.toUri().toString()).values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .as("offsets the readers continue at")
                .isEqualTo(6);

        KAFKA.broker().deleteTopic("stale-in");
        await().atMost(Duration.ofSeconds(30)).until(() -> !topics().contains("stale-in"));
        KAFKA.broker().createTopic("stale-in", 2);
        KafkaTopics.write(KAFKA.bootstrapServers(), "stale-in", List.of("x", "y"));

        Throwable failure = catchThrowable(
                () -> Words.start(KAFKA.bootstrapServers(), "stale", storage).close());
        FailureAnalysis analysis = FailureReports.analyze(failure);
        assertThat(analysis).as("a report for %s", failure).isNotNull();
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.flink.checkpointing.on-stale-checkpoint",
                        "does not fit the topics in Kafka",
                        "stale-in-",
                        "beyond its end");
        assertThat(analysis.getAction()).contains("on-stale-checkpoint=start-fresh", "on-stale-checkpoint=resume");

        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "stale",
                storage,
                "streamsplit.flink.checkpointing.on-stale-checkpoint=start-fresh")) {
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "stale-out"))
                            .contains("X", "Y"));
            try (Stream<Path> entries = Files.list(checkpoints)) {
                assertThat(entries.map(p -> p.getFileName().toString()))
                        .anyMatch(name -> name.startsWith(jobDirectory.getFileName() + ".stale-"));
            }
        }
    }

    private static long committed(String group) throws Exception {
        try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get();
            return offsets.values().stream()
                    .filter(o -> o != null)
                    .mapToLong(OffsetAndMetadata::offset)
                    .sum();
        }
    }

    private static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
            return admin.listTopics().names().get();
        }
    }

    private static Path newestCheckpoint(Path jobDirectory) throws Exception {
        try (Stream<Path> entries = Files.list(jobDirectory)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Files.exists(p.resolve("_metadata")))
                    .max((a, b) -> Long.compare(id(a), id(b)))
                    .orElseThrow();
        }
    }

    private static long id(Path checkpoint) {
        return Long.parseLong(checkpoint.getFileName().toString().substring("chk-".length()));
    }
}
