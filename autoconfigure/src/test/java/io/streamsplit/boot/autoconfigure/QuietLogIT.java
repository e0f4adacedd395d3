package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a newcomer's healthy application logs: a source with a dead-letter topic and an exactly-once sink, running
 * through a dozen checkpoints on the embedded cluster, writes no WARN line — in particular none of
 * Flink's per-checkpoint metric name collisions and no "could not commit offsets" while the consumer
 * group's coordinator is still being found. Its source fetches rack-aware ({@code client-rack}), which a
 * broker without racks serves from the leaders, quietly.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuietLogIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void aHealthyAppWithASinkAndDeadLettersLogsNoWarnings(CapturedOutput output) throws Exception {
        KAFKA.broker().createTopic("quiet-in", 2);
        KAFKA.broker().createTopic("quiet-out", 1);
        KAFKA.broker().createTopic("quiet-in.DLT", 1);
        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "quiet",
                "streamsplit.kafka.sources.words.bad-record-policy=dead-letter",
                "streamsplit.kafka.sources.words.dead-letter-topic=quiet-in.DLT",
                "streamsplit.kafka.sources.words.client-rack=zone-a",
                "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once")) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "quiet-in", List.of("calm", "bad-apple", "still"));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "quiet-out"))
                        .containsExactlyInAnyOrder("CALM", "STILL");
                assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "quiet-in.DLT"))
                        .hasSize(1);
            });
            StreamSplitHealthIndicator health = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).until(() -> checkpointId(health) >= 12);
        }
        // the broker's own log stands for an external Kafka's, not the application's
        List<String> warnings = output.getAll()
                .lines()
                .filter(line -> line.contains(" WARN "))
                .filter(line -> !line.contains("o.a.k.controller.") && !line.contains("] kafka."))
                .toList();
        // the one expected WARN: the bad record, named with its topic, partition and offset
        assertThat(warnings)
                .filteredOn(line -> !line.contains("Dead-lettered a bad record (source words"))
                .as("WARN lines of a healthy run")
                .isEmpty();
        assertThat(output.getAll()).doesNotContain("Name collision").doesNotContain("could not commit offsets");
        // the rack from YAML reached the readers on the TaskManager
        assertThat(output.getAll()).contains("Source words: reader 0 fetches from rack zone-a");
    }

    private static long checkpointId(StreamSplitHealthIndicator health) {
        Object last = health.health().getDetails().get("lastCheckpoint");
        Object id = last instanceof Map<?, ?> details ? details.get("id") : null;
        return id instanceof Number number ? number.longValue() : -1;
    }
}
