package io.streamsplit.connector.kafka.sink;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes {@link DeadLetterRecord}s to one dead-letter topic: the original key and value bytes, the
 * original headers, and the {@code streamsplit.dlt.*} headers that say where the record came from and
 * why it was rejected.
 *
 * <pre>{@code
 * KafkaSink<DeadLetterRecord> sink = KafkaSink.<DeadLetterRecord>builder()
 *         .setBootstrapServers(servers)
 *         .setRecordSerializer(new DeadLetterSerializationSchema("orders.DLT"))
 *         .build();
 * }</pre>
 */
@Internal
public final class DeadLetterSerializationSchema implements KafkaRecordSerializationSchema<DeadLetterRecord> {

    private static final long serialVersionUID = 1L;

    private final String topic;

    /** Writes every dead letter to {@code topic}. */
    public DeadLetterSerializationSchema(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetterRecord record, KafkaSinkContext context, Long timestamp) {
        return record.toProducerRecord(topic);
    }
}
