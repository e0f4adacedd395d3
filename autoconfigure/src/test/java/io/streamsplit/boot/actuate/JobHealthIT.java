package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/** Health follows the job: UP while it runs and checkpoints, DOWN with the cause once it failed for good. */
class JobHealthIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void runningJobIsUpAndAJobThatFailedForGoodIsDownWithItsCause() throws Exception {
        KAFKA.broker().createTopic("health-in", 1);
        KAFKA.broker().createTopic("health-out", 1);
        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "health",
                "streamsplit.flink.parallelism=1",
                "streamsplit.flink.restart.strategy=none")) {
            StreamSplitHealthIndicator indicator = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health health = indicator.health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails())
                        .containsEntry("status", "RUNNING")
                        .containsEntry("job", "health");
                assertThat(health.getDetails().get("lastCheckpoint").toString()).contains("completedAt");
            });

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    java.util.Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                for (String value : List.of("fine", "bad-apple")) {
                    producer.send(new ProducerRecord<>("health-in", value)).get();
                }
            }
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health health = indicator.health();
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(health.getDetails()).containsEntry("status", "FAILED");
                assertThat(health.getDetails().get("reason").toString())
                        .contains("health-in")
                        .contains("not a word: bad-apple");
            });
        }
    }
}
