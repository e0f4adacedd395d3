package io.streamsplit.connector.kafka.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;

/**
 * A user's value {@link SerializationSchema} together with the element type of the stream it
 * writes. flink-connector-kafka 5.0.0-2.2 reads the value schema's generic type for lineage and
 * fails on lambdas ("The types of the interface SerializationSchema could not be inferred"); a
 * schema that is {@link ResultTypeQueryable} skips that lookup, so lambda serializer beans work.
 *
 * <p>Used by the Spring Boot starter; it lives here because it travels in the job graph, and the
 * starter's own classes are not shipped to a Flink cluster.
 *
 * <pre>{@code
 * SerializationSchema<Order> json = order -> mapper.writeValueAsBytes(order);
 * KafkaRecordSerializationSchema.builder()
 *         .setValueSerializationSchema(new TypedSerializationSchema<>(json, TypeInformation.of(Order.class)))
 * }</pre>
 */
@Internal
public final class TypedSerializationSchema<T> implements SerializationSchema<T>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final SerializationSchema<T> delegate;
    private final TypeInformation<T> type;

    public TypedSerializationSchema(SerializationSchema<T> delegate, TypeInformation<T> type) {
        this.delegate = delegate;
        this.type = type;
    }

    @Override
    public void open(InitializationContext context) throws Exception {
        delegate.open(context);
    }

    @Override
    public byte[] serialize(T element) {
        return delegate.serialize(element);
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }
}
