package io.streamsplit.boot.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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

    /**
     * Every record now in {@code topic} that a read_committed consumer sees: up to the last stable offsets
     * as of the call. Assigns the partitions rather than joining a consumer group, so that tests polling
     * this in a loop do not make the broker run a group join per poll.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Reading topic '" + topic + "' did not reach its end offsets " + end
                            + " within " + TIMEOUT.toSeconds() + " s; read " + records.size() + " records");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    public static List<String> values(String bootstrapServers, String topic) {
        return readAll(bootstrapServers, topic).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8))
                .toList();
    }
}
