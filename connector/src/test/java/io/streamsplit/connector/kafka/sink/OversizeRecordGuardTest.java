package io.streamsplit.connector.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Which records the guard leaves out: those the producer would refuse for its max.request.size, no others. */
class OversizeRecordGuardTest {

    private static final KafkaRecordSerializationSchema<String> VALUES =
            (element, context, timestamp) -> new ProducerRecord<>("out", element.getBytes(StandardCharsets.UTF_8));

    @Test
    void aRecordWithinTheLimitIsWrittenAndOneAboveItIsLeftOut() {
        Properties producer = new Properties();
        producer.setProperty("max.request.size", "1000");
        OversizeRecordGuard<String> guard = new OversizeRecordGuard<>(VALUES, "totals", producer);

        assertThat(guard.serialize("x".repeat(800), null, null)).isNotNull();
        assertThat(guard.serialize("x".repeat(1000), null, null))
                .as("1,000 bytes of value plus the record's overhead in its batch exceed 1,000")
                .isNull();
    }

    @Test
    void withoutASettingKafkasDefaultOf1MbApplies() {
        OversizeRecordGuard<String> guard = new OversizeRecordGuard<>(VALUES, "totals", new Properties());

        assertThat(guard.serialize("x".repeat(1_000_000), null, null)).isNotNull();
        assertThat(guard.serialize("x".repeat(1_048_576), null, null)).isNull();
    }

    @Test
    void whatTheSerializerLeavesOutStaysOut() {
        OversizeRecordGuard<String> guard =
                new OversizeRecordGuard<>((element, context, timestamp) -> null, "totals", new Properties());

        assertThat(guard.serialize("x", null, null)).isNull();
    }
}
