package io.streamsplit.sample;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Known input for the sample's pipeline and the totals it must give: a batch record of two orders, a
 * single order, a JSON refund and a malformed record, all in one 5-second event-time
 * window; a later order moves the watermark past the window.
 */
final class OneWindowOfOrders {

    private static final long WINDOW_START = 1_700_000_000_000L;
    private static final String WINDOW =
            "\"windowStart\":\"2023-11-14T22:13:20Z\",\"windowEnd\":\"2023-11-14T22:13:25Z\"";

    /** The exact customer totals of that window. */
    static final List<String> TOTALS = List.of(
            "{\"customer\":\"alice\"," + WINDOW + ",\"orders\":3,\"totalCents\":320}",
            "{\"customer\":\"bob\"," + WINDOW + ",\"orders\":1,\"totalCents\":70}");

    private OneWindowOfOrders() {}

    /** Writes the input to the {@code orders} and {@code refunds} topics at {@code bootstrapServers}. */
    static void produce(String bootstrapServers) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            send(
                    producer,
                    "orders",
                    null,
                    WINDOW_START,
                    order("o1", "alice", 100, 1000) + "\n" + order("o2", "alice", 250, 2000));
            send(producer, "orders", null, WINDOW_START, order("o3", "bob", 70, 3000));
            send(producer, "orders", null, WINDOW_START, "not an order");
            send(
                    producer,
                    "refunds",
                    "alice",
                    WINDOW_START + 4000,
                    "{\"refundId\":\"r1\",\"customer\":\"alice\",\"amountCents\":30}");
            send(producer, "orders", null, WINDOW_START, order("o4", "carol", 1, 20_000));
        }
    }

    private static String order(String id, String customer, long cents, long offsetMillis) {
        return new Order(id, customer, cents, WINDOW_START + offsetMillis).format();
    }

    private static void send(
            KafkaProducer<byte[], byte[]> producer, String topic, String key, long timestamp, String value)
            throws Exception {
        producer.send(new ProducerRecord<>(
                        topic,
                        null,
                        timestamp,
                        key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                        value.getBytes(StandardCharsets.UTF_8)))
                .get();
    }
}
