package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code streamsplit.flink.dry-run}, the step a CI/CD pipeline runs before a rollout: the application runs its
 * start-up checks, builds the job, says what a start would do, submits nothing and closes itself; a failed
 * check fails the start as it would without the dry run.
 */
@ExtendWith(OutputCaptureExtension.class)
class DryRunIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void aGoodConfigurationSaysWhatItWouldDoSubmitsNothingAndCloses(CapturedOutput output) throws Exception {
        KAFKA.broker().createTopic("dry-in", 2);
        KafkaTopics.write(KAFKA.bootstrapServers(), "dry-in", List.of("quiet"));

        // the sink's topic is missing and a real start would create it: the dry run only has the broker validate that
        ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "dry",
                "streamsplit.flink.dry-run=true",
                "streamsplit.kafka.create-topics.enabled=true");

        // the application closes itself once ready: its beans may be gone by now, its log is not
        await().atMost(Duration.ofSeconds(30)).until(() -> !app.isActive());
        assertThat(output.getAll())
                .contains(
                        "Dry run of Flink job 'dry'",
                        "nothing submitted, stopped or written: would run on the embedded Flink MiniCluster from the"
                                + " sources' starting offsets",
                        "Dry run of Flink job 'dry' done: closing the application",
                        "Dry run: would create topic 'dry-out'",
                        "the broker validated the request and created nothing")
                .doesNotContain("Submitted Flink job 'dry'");
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                java.util.Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            assertThat(admin.listTopics().names().get(30, java.util.concurrent.TimeUnit.SECONDS))
                    .as("no topic created")
                    .contains("dry-in")
                    .doesNotContain("dry-out");
        }
    }

    @Test
    void aFailedCheckFailsTheDryRunAsItFailsAStart() {
        Throwable failure = catchThrowable(() -> Words.start(
                        KAFKA.bootstrapServers(),
                        "dry-missing",
                        "streamsplit.flink.dry-run=true",
                        "streamsplit.kafka.sources.words.topics=no-such-topic")
                .close());

        assertThat(failure).hasStackTraceContaining("topic 'no-such-topic' of source 'words' does not exist");
    }
}
