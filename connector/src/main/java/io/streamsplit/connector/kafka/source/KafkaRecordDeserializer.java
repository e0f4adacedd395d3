package io.streamsplit.connector.kafka.source;

import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

/**
 * Turns one Kafka record into one element. Sees the whole record (key, value, headers, topic,
 * partition, offset, timestamp), so it can do what a value-only {@link DeserializationSchema}
 * cannot.
 *
 * <pre>{@code
 * KafkaRecordDeserializer<Order> orders =
 *         record -> Order.parse(new String(record.value(), StandardCharsets.UTF_8));
 * }</pre>
 *
 * <p>A thrown exception makes the record a bad record, handled by the source's {@link
 * BadRecordPolicy}, except an {@link UnavailableException}: then the record may be fine, and the task
 * fails and reads it again after recovery. Returning {@code null} drops the record on purpose (e.g. a tombstone).
 * Implementations are shipped to TaskManagers, so they must be serializable.
 *
 * @param <T> the element type
 */
@FunctionalInterface
@PublicEvolving
public interface KafkaRecordDeserializer<T> extends Serializable {

    /** The element for this record, or {@code null} to drop it on purpose. */
    @Nullable
    T deserialize(ConsumerRecord<byte[], byte[]> record) throws Exception;

    /** Called once per reader before the first record; for expensive setup such as schema clients. */
    default void open(DeserializationSchema.InitializationContext context) throws Exception {}

    /**
     * What reading the record needs is not there right now (a schema registry that does not answer), so
     * the record may be fine: instead of the source's {@link BadRecordPolicy}, the task fails, restarts
     * from the last checkpoint and reads the record again. Thrown from {@link #deserialize} or from a
     * value-only {@link DeserializationSchema}'s {@code deserialize}, also as the cause of another exception.
     *
     * <pre>{@code
     * throw new KafkaRecordDeserializer.UnavailableException("registry " + url + " does not answer", e);
     * }</pre>
     */
    @PublicEvolving
    final class UnavailableException extends IOException {

        private static final long serialVersionUID = 1L;

        public UnavailableException(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }
}
