package io.streamsplit.embedded.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Every record a {@code read_committed} consumer sees in a topic now: what a test checks after a
 * pipeline wrote with exactly-once. The partitions are assigned, not subscribed (no consumer group,
 * nothing for the broker to rebalance however often a test polls), and read up to their last stable
 * offsets as of the call: a transaction still open is not waited for.
 *
 * <pre>{@code
 * List<ConsumerRecord<byte[], byte[]>> out =
 *         CommittedRecords.read(broker.clientProperties(), "orders-out", Duration.ofSeconds(30));
 * }</pre>
 */
public final class CommittedRecords {

    private static final Duration POLL = Duration.ofMillis(100);

    private CommittedRecords() {}

    /**
     * Reads {@code topic} with the client settings {@code client} (bootstrap servers, security); fails
     * with an {@link AssertionError} naming the topic when its end is not reached within {@code timeout}.
     */
    public static List<ConsumerRecord<byte[], byte[]>> read(Properties client, String topic, Duration timeout) {
        Properties props = new Properties();
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            // read_committed end offsets are the last stable offsets
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Reading topic '" + topic + "' did not reach its end offsets " + end
                            + " within " + timeout.toSeconds() + " s; read " + records.size() + " records");
                }
                consumer.poll(POLL).forEach(records::add);
            }
        }
        return records;
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
