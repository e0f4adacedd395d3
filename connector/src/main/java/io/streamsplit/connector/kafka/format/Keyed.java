package io.streamsplit.connector.kafka.format;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

/**
 * A record's key and value, both deserialized: the element of a source that reads its keys too, ready
 * for {@code keyBy(Keyed::key)}.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.JsonFormat;
 * import io.streamsplit.connector.kafka.format.Keyed;
 * import io.streamsplit.connector.kafka.format.TextFormat;
 *
 * builder.setDeserializer(
 *         Keyed.deserializer(TextFormat.utf8(), JsonFormat.of(Order.class)),
 *         Keyed.typeInfo(TextFormat.utf8(), JsonFormat.of(Order.class)));
 * }</pre>
 *
 * <p>Flink serializes it as a POJO of its two typed fields, never with Kryo.
 *
 * @param key the deserialized key; {@code null} for a record without one
 * @param value the deserialized value
 * @param <K> the key type
 * @param <V> the value type
 */
@PublicEvolving
public record Keyed<K, V>(@Nullable K key, V value) {

    /** Reads both halves of each record; a key or value that does not parse makes the record a bad record. */
    public static <K, V> KafkaRecordDeserializer<Keyed<K, V>> deserializer(
            DeserializationSchema<K> key, DeserializationSchema<V> value) {
        return new KeyedDeserializer<>(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /** The Flink type of {@code Keyed} elements with these halves. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <K, V> TypeInformation<Keyed<K, V>> typeInfo(
            DeserializationSchema<K> key, DeserializationSchema<V> value) {
        return (TypeInformation)
                Types.POJO(Keyed.class, Map.of("key", key.getProducedType(), "value", value.getProducedType()));
    }

    private static final class KeyedDeserializer<K, V> implements KafkaRecordDeserializer<Keyed<K, V>> {

        private static final long serialVersionUID = 1L;

        private final DeserializationSchema<K> key;
        private final DeserializationSchema<V> value;

        KeyedDeserializer(DeserializationSchema<K> key, DeserializationSchema<V> value) {
            this.key = key;
            this.value = value;
        }

        @Override
        public void open(DeserializationSchema.InitializationContext context) throws Exception {
            key.open(context);
            value.open(context);
        }

        @Override
        public @Nullable Keyed<K, V> deserialize(ConsumerRecord<byte[], byte[]> record) throws Exception {
            V read = value.deserialize(record.value());
            if (read == null) {
                return null; // a tombstone
            }
            return new Keyed<>(record.key() == null ? null : key.deserialize(record.key()), read);
        }

        @Override
        public String toString() {
            return "Keyed(" + key + ", " + value + ")";
        }
    }
}
