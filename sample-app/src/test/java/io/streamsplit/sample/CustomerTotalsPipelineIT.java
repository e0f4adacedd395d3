package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import io.streamsplit.boot.autoconfigure.EmbeddedKafkaDevBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample's pipeline on known input: a batch record of two orders, a single order, a refund
 * keyed by customer, and a malformed record, all in one 5-second event-time window; a later order
 * moves the watermark past the window. The totals must be exact.
 */
@SpringBootTest(properties = "sample.demo-data.enabled=false")
class CustomerTotalsPipelineIT {

    private static final long WINDOW_START = 1_700_000_000_000L;

    @Autowired
    CustomerTotalsLog totalsLog;

    @Autowired
    EmbeddedKafkaDevBroker devBroker;

    @Test
    void totalsPerCustomerAndWindowAreExactAndBadRecordsDoNotCount() throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, devBroker.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            send(producer, "orders", null, WINDOW_START, order("o1", "alice", 100, 1000) + "\n" + order("o2", "alice", 250, 2000));
            send(producer, "orders", null, WINDOW_START, order("o3", "bob", 70, 3000));
            send(producer, "orders", null, WINDOW_START, "not an order");
            send(producer, "refunds", "alice", WINDOW_START + 4000, "r1;30");
            send(producer, "orders", null, WINDOW_START, order("o4", "carol", 1, 20_000));
        }
        String window = "\"windowStart\":\"2023-11-14T22:13:20Z\",\"windowEnd\":\"2023-11-14T22:13:25Z\"";
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(totalsLog.totals()).containsExactlyInAnyOrder(
                "{\"customer\":\"alice\"," + window + ",\"orders\":3,\"totalCents\":320}",
                "{\"customer\":\"bob\"," + window + ",\"orders\":1,\"totalCents\":70}"));
    }

    private static String order(String id, String customer, long cents, long offsetMillis) {
        return new Order(id, customer, cents, WINDOW_START + offsetMillis).format();
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String key, long timestamp,
            String value) throws Exception {
        producer.send(new ProducerRecord<>(topic, null, timestamp, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8))).get();
    }
}
