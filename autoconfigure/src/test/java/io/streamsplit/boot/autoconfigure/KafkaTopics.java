package io.streamsplit.boot.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes and reads test topics on a real broker. */
public final class KafkaTopics {

    private KafkaTopics() {}

    /** Writes {@code values} (in order, batched) and returns once all are acknowledged. */
    public static void write(String bootstrapServers, String topic, List<String> values) throws Exception {
        write(
                bootstrapServers,
                values.stream()
                        .map(value -> new ProducerRecord<byte[], byte[]>(topic, value.getBytes(StandardCharsets.UTF_8)))
                        .toList());
    }

    /** Writes {@code records} (in order, batched, keys and all) and returns once all are acknowledged. */
    public static void write(String bootstrapServers, List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "10");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            java.util.concurrent.Future<?> last = null;
            for (ProducerRecord<byte[], byte[]> record : records) {
                last = producer.send(record);
            }
            producer.flush();
            if (last != null) {
                last.get(30, TimeUnit.SECONDS); // surfaces a failed send
            }
        }
    }

    /** Every record now in {@code topic} that a read_committed consumer sees. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                if (!consumer.assignment().isEmpty()) {
                    boolean caughtUp = true;
                    for (var entry : consumer.endOffsets(consumer.assignment()).entrySet()) {
                        caughtUp &= consumer.position(entry.getKey()) >= entry.getValue();
                    }
                    if (caughtUp) {
                        break;
                    }
                }
            }
        }
        return records;
    }

    public static List<String> values(String bootstrapServers, String topic) {
        return readAll(bootstrapServers, topic).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8))
                .toList();
    }
}
