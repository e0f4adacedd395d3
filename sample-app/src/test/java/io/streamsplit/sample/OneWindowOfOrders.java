package io.streamsplit.sample;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Known input for the sample's pipeline, for an application in another process (the fat-jar test),
 * and the totals it must give: a batch record of two orders, a
 * single order, a JSON refund and a malformed record, all in one 5-second event-time
 * window; a later order moves the watermark past the window.
 */
final class OneWindowOfOrders {

    static final Instant WINDOW_START = Instant.ofEpochMilli(1_700_000_000_000L);
    private static final String WINDOW =
            "\"windowStart\":\"2023-11-14T22:13:20Z\",\"windowEnd\":\"2023-11-14T22:13:25Z\"";

    /** The exact customer totals of that window. */
    static final List<String> TOTALS = List.of(
            "{\"customer\":\"alice\"," + WINDOW + ",\"orders\":3,\"totalCents\":320}",
            "{\"customer\":\"bob\"," + WINDOW + ",\"orders\":1,\"totalCents\":70}");

    private OneWindowOfOrders() {}

    /** The input, for topics {@code orders} and {@code refunds}, in the order it is sent. */
    static List<ProducerRecord<byte[], byte[]>> records() {
        return List.of(
                record("orders", null, 0, order("o1", "alice", 100, 1000) + "\n" + order("o2", "alice", 250, 2000)),
                record("orders", null, 0, order("o3", "bob", 70, 3000)),
                record("orders", null, 0, "not an order"),
                record("refunds", "alice", 4000, "{\"refundId\":\"r1\",\"customer\":\"alice\",\"amountCents\":30}"),
                record("orders", null, 0, order("o4", "carol", 1, 20_000)));
    }

    /** Writes the input to {@code bootstrapServers} with a producer of its own (for an app in another process). */
    static void produce(String bootstrapServers) throws Exception {
        produce(bootstrapServers, "");
    }

    /** Writes the input to topics {@code orders<suffix>} and {@code refunds<suffix>}. */
    static void produce(String bootstrapServers, String topicSuffix) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> record : records()) {
                producer.send(new ProducerRecord<>(
                                record.topic() + topicSuffix,
                                record.partition(),
                                record.timestamp(),
                                record.key(),
                                record.value()))
                        .get();
            }
        }
    }

    /** Every value on {@code topic} now, read from the start to its end (what an app in another process wrote). */
    static List<String> values(String bootstrapServers, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition()))
                    .toList());
            Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
        }
        return values;
    }

    private static String order(String id, String customer, long cents, long offsetMillis) {
        return new Order(id, customer, cents, WINDOW_START.toEpochMilli() + offsetMillis).format();
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, long offsetMillis, String value) {
        return new ProducerRecord<>(
                topic,
                null,
                WINDOW_START.toEpochMilli() + offsetMillis,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }
}
