package io.streamsplit.connector.kafka.source;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes test records to the embedded broker. */
public final class KafkaTestRecords {

    private KafkaTestRecords() {}

    public static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(props);
    }

    /** Writes {@code values} round-robin over {@code partitions} partitions and waits for the acks. */
    public static void write(String bootstrapServers, String topic, int partitions, List<String> values) {
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
            for (int i = 0; i < values.size(); i++) {
                producer.send(new ProducerRecord<>(
                        topic, i % partitions, null, values.get(i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    /** Writes {@code values} to one partition with the given record timestamps. */
    public static void writeWithTimestamps(
            String bootstrapServers, String topic, int partition, List<String> values, List<Long> timestamps) {
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
            for (int i = 0; i < values.size(); i++) {
                producer.send(new ProducerRecord<>(
                        topic, partition, timestamps.get(i), null, values.get(i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }
}
