package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A record larger than the sink producer's {@code max.request.size} (1 MB, Kafka's default): the producer
 * refuses it before sending, the job fails at it (and would again after every restart), and health names the
 * sink, the size and the setting that allows it.
 */
@ExtendWith(OutputCaptureExtension.class)
class SinkRecordTooLargeIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void aRecordLargerThanTheSinksMaxRequestSizeNamesTheSinkTheSizeAndTheSetting() throws Exception {
        KAFKA.broker().createTopic("large-in", 1, Map.of("max.message.bytes", String.valueOf(3 << 20)));
        KAFKA.broker().createTopic("large-out", 1);
        try (ConfigurableApplicationContext app =
                        Words.start(KAFKA.bootstrapServers(), "large", "streamsplit.flink.restart.strategy=none");
                KafkaProducer<String, String> producer = largeRecordProducer()) {
            producer.send(new ProducerRecord<>("large-in", "x".repeat(3 << 19))).get();

            StreamSplitHealthIndicator indicator = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health health = indicator.health();
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(String.valueOf(health.getDetails().get("reason")))
                        .contains("sink 'upper' cannot write a record of")
                        .contains("larger than the producer's max.request.size (1048576 bytes)")
                        .contains("Raise streamsplit.kafka.sinks.upper.properties.max.request.size above")
                        .contains("streamsplit.kafka.sinks.upper.oversize-record-policy=skip");
            });
        }
    }

    @Test
    void withTheSkipPolicyTheRecordIsLeftOutCountedAndTheJobGoesOn(CapturedOutput output) throws Exception {
        KAFKA.broker().createTopic("skipped-in", 1, Map.of("max.message.bytes", String.valueOf(3 << 20)));
        KAFKA.broker().createTopic("skipped-out", 1);
        try (ConfigurableApplicationContext app = Words.start(
                        KAFKA.bootstrapServers(),
                        "skipped",
                        "streamsplit.flink.restart.strategy=none",
                        "streamsplit.kafka.sinks.upper.oversize-record-policy=skip");
                KafkaProducer<String, String> producer = largeRecordProducer()) {
            producer.send(new ProducerRecord<>("skipped-in", "before")).get();
            producer.send(new ProducerRecord<>("skipped-in", "x".repeat(3 << 19)))
                    .get();
            producer.send(new ProducerRecord<>("skipped-in", "after")).get();

            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "skipped-out"))
                            .containsExactly("BEFORE", "AFTER"));
            assertThat(output.getOut())
                    .contains("Sink 'upper' left out 1 record(s) for topic 'skipped-out' larger than the producer's"
                            + " max.request.size (1048576 bytes");
            StreamSplitHealthIndicator indicator = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertThat(indicator.health().getStatus()).isEqualTo(Status.UP));
        }
    }

    /** A producer that writes records of up to 3 MB (the sink's producer keeps Kafka's 1 MB). */
    private static KafkaProducer<String, String> largeRecordProducer() {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KAFKA.bootstrapServers(),
                        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                        3 << 20),
                new StringSerializer(),
                new StringSerializer());
    }
}
