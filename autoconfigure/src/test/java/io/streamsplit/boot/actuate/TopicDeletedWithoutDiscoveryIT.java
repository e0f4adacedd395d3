package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A source topic deleted while the job reads it, with the default discovery (once, at start): Kafka's consumer
 * answered every fetch of the deleted partition at once with an error and fetched again, about 12,000 times
 * (and WARN lines) a second per reader, for as long as the job ran. The readers now find the partitions gone
 * within about a second, say so once and stop fetching them.
 */
@ExtendWith(OutputCaptureExtension.class)
class TopicDeletedWithoutDiscoveryIT {

    private static final String KAFKA_FETCH_WARNING = "Received unknown topic or partition error in fetch";

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void aDeletedTopicDoesNotMakeTheReadersSpin(CapturedOutput output) throws Exception {
        KAFKA.broker().createTopic("deleted-in", 2);
        KAFKA.broker().createTopic("deleted-out", 1);
        try (ConfigurableApplicationContext app = Words.start(KAFKA.bootstrapServers(), "deleted")) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "deleted-in", List.of("a", "b"));
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "deleted-out"))
                            .hasSize(2));

            KAFKA.broker().deleteTopic("deleted-in");
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(output.getOut())
                            .contains("Source words: partitions [deleted-in-0] no longer exist in Kafka")
                            .contains("Source words: partitions [deleted-in-1] no longer exist in Kafka"));
            int before = count(output.getOut());

            await().during(Duration.ofSeconds(4))
                    .atMost(Duration.ofSeconds(6))
                    .untilAsserted(() -> assertThat(count(output.getOut()) - before)
                            .as("Kafka's fetch warnings since the readers saw the partitions gone")
                            .isLessThan(10));

            // the job no longer reads all it was configured to (a topic created again is not read): not UP
            StreamSplitHealthIndicator health = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Health now = health.health();
                assertThat(now.getStatus()).isEqualTo(Status.DOWN);
                assertThat(String.valueOf(now.getDetails().get("reason")))
                        .contains("source 'words'", "deleted-in-0", "deleted-in-1", "no longer exist in Kafka")
                        .contains("streamsplit.kafka.sources.words.discovery-interval");
            });
        }
    }

    private static int count(String log) {
        int count = 0;
        for (int at = log.indexOf(KAFKA_FETCH_WARNING); at >= 0; at = log.indexOf(KAFKA_FETCH_WARNING, at + 1)) {
            count++;
        }
        return count;
    }
}
