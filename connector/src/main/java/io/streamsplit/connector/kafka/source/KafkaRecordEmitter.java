package io.streamsplit.connector.kafka.source;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns one raw Kafka record into zero, one or many elements, with event timestamps of its
 * choosing. The extension point for fan-out, filtering and envelope unwrapping.
 *
 * <pre>{@code
 * KafkaRecordEmitter<OrderLine> lines = (record, out) -> {
 *     Order order = Order.parse(record.value());
 *     for (OrderLine line : order.lines()) {
 *         out.collect(line, order.createdAtMillis());
 *     }
 * };
 * }</pre>
 *
 * <p>The source advances the partition's offset itself after {@code emit} returns, whatever was
 * emitted, so an emitter cannot corrupt checkpointed progress. A thrown exception makes the
 * record a bad record, handled by the source's {@link BadRecordPolicy} (elements emitted before
 * the exception stay emitted). Implementations are shipped to TaskManagers, so they must be
 * serializable.
 *
 * @param <T> the element type
 */
@FunctionalInterface
@PublicEvolving
public interface KafkaRecordEmitter<T> extends Serializable {

    /** Emits the elements for {@code record} into {@code out}. */
    void emit(ConsumerRecord<byte[], byte[]> record, KafkaRecordCollector<T> out) throws Exception;

    /** Called once per reader before the first record. */
    default void open(DeserializationSchema.InitializationContext context) throws Exception {}

    /** An emitter that emits what {@code deserializer} returns, with the record's timestamp. */
    static <T> KafkaRecordEmitter<T> of(KafkaRecordDeserializer<T> deserializer) {
        Objects.requireNonNull(deserializer, "deserializer");
        return new KafkaRecordEmitter<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public void emit(ConsumerRecord<byte[], byte[]> record, KafkaRecordCollector<T> out) throws Exception {
                T element = deserializer.deserialize(record);
                if (element != null) {
                    out.collect(element);
                }
            }

            @Override
            public void open(DeserializationSchema.InitializationContext context) throws Exception {
                deserializer.open(context);
            }
        };
    }

    /**
     * An emitter that runs Flink's {@link DeserializationSchema} on the record value (the key and
     * headers are ignored), with the record's timestamp.
     */
    static <T> KafkaRecordEmitter<T> valueOnly(DeserializationSchema<T> schema) {
        return new ValueOnlyRecordEmitter<>(Objects.requireNonNull(schema, "schema"));
    }
}
