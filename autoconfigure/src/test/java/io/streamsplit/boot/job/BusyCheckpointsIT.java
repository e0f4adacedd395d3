package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An embedded exactly-once pipeline's output becomes visible soon after its input arrives, whatever the
 * periodic interval ({@code streamsplit.flink.checkpointing.interval}, here five minutes so that Flink's own
 * checkpoints never come during the test): the starter asks for a checkpoint every {@code busy-interval} (250 ms
 * by default) while the sources read — and for none while they do not.
 */
class BusyCheckpointsIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void outputIsCommittedWhileRecordsArriveAndNoCheckpointIsAskedForWhenNothingIs() throws Exception {
        KAFKA.broker().createTopic("busy-in", 2);
        KAFKA.broker().createTopic("busy-out", 1);
        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "busy",
                "streamsplit.flink.checkpointing.interval=5m",
                "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once")) {
            BusyCheckpoints busy = app.getBean(BusyCheckpoints.class);
            // the first record may ride on the run's first checkpoint (FirstCheckpoint); every later one cannot
            KafkaTopics.write(KAFKA.bootstrapServers(), "busy-in", List.of("one"));
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "busy-out"))
                            .containsExactly("ONE"));
            for (String word : List.of("two", "three")) {
                KafkaTopics.write(KAFKA.bootstrapServers(), "busy-in", List.of(word));
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "busy-out"))
                                .contains(word.toUpperCase(java.util.Locale.ROOT)));
            }
            assertThat(busy.triggered()).isGreaterThanOrEqualTo(2);

            long afterTheInput = busy.triggered();
            // a dozen looks at an idle job, none of which may ask
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(busy.triggered())
                            .as("checkpoints asked for while nothing was read")
                            .isEqualTo(afterTheInput));
        }
    }
}
