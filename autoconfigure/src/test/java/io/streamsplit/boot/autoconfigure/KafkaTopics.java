package io.streamsplit.boot.autoconfigure;

import io.streamsplit.embedded.kafka.CommittedRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes and reads test topics on a real broker. */
public final class KafkaTopics {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

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

    /** Every record now in {@code topic} that a read_committed consumer sees (see {@link CommittedRecords}). */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic) {
        Properties client = new Properties();
        client.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return CommittedRecords.read(client, topic, TIMEOUT);
    }

    public static List<String> values(String bootstrapServers, String topic) {
        return readAll(bootstrapServers, topic).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8))
                .toList();
    }
}
