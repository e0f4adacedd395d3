package io.streamsplit.connector.kafka.sink;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
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
public final class DeadLetterSerializationSchema
        implements KafkaRecordSerializationSchema<DeadLetterRecord>, KafkaDatasetFacetProvider {

    private static final long serialVersionUID = 1L;

    private final String topic;

    /** Writes every dead letter to {@code topic}. */
    public DeadLetterSerializationSchema(String topic) {
        this.topic = topic;
    }

    /** The dead-letter topic, so the sink reports it to Flink's lineage interface as an output of the job. */
    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(new DefaultKafkaDatasetFacet(DefaultKafkaDatasetIdentifier.ofTopics(List.of(topic))));
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetterRecord record, KafkaSinkContext context, Long timestamp) {
        return record.toProducerRecord(topic);
    }
}
