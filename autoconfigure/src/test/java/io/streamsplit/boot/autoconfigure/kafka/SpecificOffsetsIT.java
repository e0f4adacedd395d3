package io.streamsplit.boot.autoconfigure.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code starting-offsets: specific} and {@code stopping-offsets: specific} from YAML on a real broker: each listed
 * partition is read from its starting offset up to (not including) its stopping offset, the others from the
 * earliest offset to the end found at start.
 */
class SpecificOffsetsIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void eachListedPartitionIsReadBetweenItsOffsets() throws Exception {
        KAFKA.broker().createTopic("specific-in", 1);
        KAFKA.broker().createTopic("specific-out", 1);
        KafkaTopics.write(
                KAFKA.bootstrapServers(),
                "specific-in",
                IntStream.range(0, 20).mapToObj(i -> "w" + i).toList());

        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "specific",
                "streamsplit.kafka.sources.words.starting-offsets=specific",
                "streamsplit.kafka.sources.words.starting-specific-offsets.specific-in-0=5",
                "streamsplit.kafka.sources.words.stopping-offsets=specific",
                "streamsplit.kafka.sources.words.stopping-specific-offsets.specific-in-0=15")) {
            List<String> expected =
                    IntStream.range(5, 15).mapToObj(i -> "W" + i).toList();
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "specific-out"))
                            .containsExactlyElementsOf(expected));
            // and nothing after offset 15 follows: four checkpoint intervals and more of the same output
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "specific-out"))
                            .containsExactlyElementsOf(expected));
        }
    }
}
