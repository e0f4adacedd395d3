package io.streamsplit.connector.kafka.sink;

import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacet;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * A sink's serializer that wraps another and does something to its records (measure, guard): Flink's lineage
 * sees through it to the wrapped serializer's topic and type.
 *
 * @param <T> the element type
 */
@Internal
abstract class DelegatingSerializationSchema<T>
        implements KafkaRecordSerializationSchema<T>, KafkaDatasetFacetProvider, TypeDatasetFacetProvider {

    private static final long serialVersionUID = 1L;

    final KafkaRecordSerializationSchema<T> serializer;

    DelegatingSerializationSchema(KafkaRecordSerializationSchema<T> serializer) {
        this.serializer = serializer;
    }

    /** The wrapped serializer's topic facet. */
    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return serializer instanceof KafkaDatasetFacetProvider provider
                ? provider.getKafkaDatasetFacet()
                : Optional.empty();
    }

    /** The wrapped serializer's type facet. */
    @Override
    public Optional<TypeDatasetFacet> getTypeDatasetFacet() {
        return serializer instanceof TypeDatasetFacetProvider provider
                ? provider.getTypeDatasetFacet()
                : Optional.empty();
    }
}
