package io.streamsplit.connector.kafka.source.control;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

/**
 * Reads a source's latest {@link SourceControl} from its control topic: on the first call the whole
 * topic (so a restarted job starts in the state it was left in), afterwards what was added since.
 * Not thread-safe: the enumerator calls it from its worker thread only.
 */
@Internal
public final class ControlTopicReader implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);
    /** How long the first read of the topic may take by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final String topic;
    private final byte[] key;
    private final Properties consumerProperties;
    private final Duration timeout;
    private volatile @Nullable KafkaConsumer<byte[], byte[]> consumer;
    private SourceControl current = SourceControl.RUNNING;
    private volatile boolean closed;

    /**
     * @param consumerProperties connection and security settings of the source's cluster
     * @param timeout how long the first call may take to read the topic to its end
     */
    public ControlTopicReader(String topic, String sourceName, Properties consumerProperties, Duration timeout) {
        this.topic = topic;
        this.key = sourceName.getBytes(StandardCharsets.UTF_8);
        this.consumerProperties = consumerProperties;
        this.timeout = timeout;
    }

    /** The connection settings a control reader uses: the source's, without group, as bytes, from the start. */
    public static Properties consumerProperties(Properties source, String clientId) {
        Properties control = new Properties();
        control.putAll(source);
        control.remove(ConsumerConfig.GROUP_ID_CONFIG);
        control.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        control.setProperty(ConsumerConfig.CLIENT_ID_CONFIG, clientId + "-control");
        control.setProperty(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        control.setProperty(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        control.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        control.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        control.setProperty(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        control.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        control.remove(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
        control.remove(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);
        return control;
    }

    /** The control in force: the latest record of this source, or {@link SourceControl#RUNNING} if none. */
    public synchronized SourceControl poll() {
        if (closed) {
            throw new IllegalStateException("control topic reader of " + topic + " is closed");
        }
        KafkaConsumer<byte[], byte[]> open = consumer;
        if (open == null) {
            open = new KafkaConsumer<>(consumerProperties);
            consumer = open; // visible to close() while the first read runs
            try {
                readToEnd(open);
            } catch (RuntimeException e) {
                consumer = null;
                open.close(Duration.ZERO);
                throw e;
            }
        }
        absorb(open.poll(POLL));
        return current;
    }

    private void readToEnd(KafkaConsumer<byte[], byte[]> created) {
        List<PartitionInfo> partitions = created.partitionsFor(topic, timeout);
        if (partitions == null || partitions.isEmpty()) {
            throw new IllegalStateException("control topic " + topic + " does not exist; create it (one"
                    + " partition, cleanup.policy=compact) or remove the control topic from the source");
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        created.assign(assigned);
        created.seekToBeginning(assigned);
        Map<TopicPartition, Long> end = created.endOffsets(assigned, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!readTo(created, end)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "could not read control topic " + topic + " to its end within " + timeout);
            }
            absorb(created.poll(POLL));
        }
    }

    /** The latest record of this source wins; a tombstone (null value) means back to {@link SourceControl#RUNNING}. */
    private void absorb(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.key() != null && Arrays.equals(record.key(), key)) {
                current = record.value() == null ? SourceControl.RUNNING : SourceControl.decode(record.value());
            }
        }
    }

    private static boolean readTo(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> entry : end.entrySet()) {
            if (consumer.position(entry.getKey()) < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Ends a poll in progress (from any thread) and closes the consumer. */
    @Override
    public void close() {
        closed = true;
        KafkaConsumer<byte[], byte[]> open = consumer;
        if (open != null) {
            open.wakeup();
        }
        synchronized (this) {
            if (consumer != null) {
                consumer.close(Duration.ofSeconds(5));
                consumer = null;
            }
        }
    }
}
