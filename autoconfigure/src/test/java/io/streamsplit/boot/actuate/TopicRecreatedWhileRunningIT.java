package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A source topic deleted and created again with fewer partitions while the job reads it, with partition
 * discovery on: the deleted partitions are released, the new ones are found and read from their start, and
 * the job goes on without a restart.
 */
class TopicRecreatedWhileRunningIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void aTopicRecreatedWithFewerPartitionsIsFollowedByDiscovery() throws Exception {
        KAFKA.broker().createTopic("recreated-in", 4);
        KAFKA.broker().createTopic("recreated-out", 1);
        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(), "recreated", "streamsplit.kafka.sources.words.discovery-interval=1s")) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "recreated-in", List.of("a", "b", "c", "d", "e", "f"));
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "recreated-out"))
                            .hasSize(6));

            KAFKA.broker().deleteTopic("recreated-in");
            StreamSplitHealthIndicator indicator = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(assignedSplits(indicator.health()))
                            .as("the deleted partitions released")
                            .isEqualTo(0L));
            KAFKA.broker().createTopic("recreated-in", 2);
            KafkaTopics.write(KAFKA.bootstrapServers(), "recreated-in", List.of("new1", "new2", "new3"));

            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "recreated-out"))
                            .containsExactlyInAnyOrder("A", "B", "C", "D", "E", "F", "NEW1", "NEW2", "NEW3"));
            Health health = indicator.health();
            assertThat(assignedSplits(health)).as("the new topic's partitions").isEqualTo(2L);
            assertThat(health.getStatus().getCode()).isEqualTo("UP");
            assertThat(health.getDetails()).containsEntry("restarts", 0L);
        }
    }

    private static Object assignedSplits(Health health) {
        Map<?, ?> sources = (Map<?, ?>) health.getDetails().get("sources");
        return ((Map<?, ?>) sources.get("words")).get("assignedSplits");
    }
}
