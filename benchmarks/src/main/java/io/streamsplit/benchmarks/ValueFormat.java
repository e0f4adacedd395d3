package io.streamsplit.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What a record's value is turned into, the same way for every reader: bytes passed through, a
 * UTF-8 String, or a small JSON object read into a POJO with Jackson. JSON records have their
 * natural size (about 60 B) whatever {@code --record-size} says.
 */
enum ValueFormat {
    BYTES,
    STRING,
    JSON;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A small order, as a Flink POJO. */
    public static final class Order {
        public long id;
        public String customer;
        public long cents;
        public long timestamp;
    }

    static ValueFormat parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }

    /** The value of record {@code i}. */
    IntFunction<byte[]> values(int size) {
        if (this != JSON) {
            byte[] value = new byte[size];
            Arrays.fill(value, (byte) 'x');
            return i -> value;
        }
        String[] customers = {"alice", "bob", "carol", "dave"};
        return i -> String.format(
                        Locale.ROOT,
                        "{\"id\":%d,\"customer\":\"%s\",\"cents\":%d,\"timestamp\":%d}",
                        i,
                        customers[i % 4],
                        (i * 37L) % 10_000,
                        1_700_000_000_000L + i)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** What the raw consumer loop does with each value. */
    Function<byte[], Object> rawDecoder() {
        return switch (this) {
            case BYTES -> value -> value;
            case STRING -> value -> new String(value, StandardCharsets.UTF_8);
            case JSON -> ValueFormat::order;
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    KafkaRecordDeserializationSchema<Object> official() {
        return switch (this) {
            case BYTES ->
                (KafkaRecordDeserializationSchema)
                        KafkaRecordDeserializationSchema.valueOnly(ByteArrayDeserializer.class);
            case STRING ->
                (KafkaRecordDeserializationSchema) KafkaRecordDeserializationSchema.valueOnly(StringDeserializer.class);
            case JSON ->
                (KafkaRecordDeserializationSchema) KafkaRecordDeserializationSchema.valueOnly(new OrderSchema());
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    KafkaRecordEmitter<Object> emitter() {
        return switch (this) {
            case BYTES ->
                (KafkaRecordEmitter) (KafkaRecordEmitter<byte[]>) (record, out) -> out.collect(record.value());
            case STRING ->
                (KafkaRecordEmitter) (KafkaRecordEmitter<String>)
                        (record, out) -> out.collect(new String(record.value(), StandardCharsets.UTF_8));
            case JSON ->
                (KafkaRecordEmitter) (KafkaRecordEmitter<Order>) (record, out) -> out.collect(order(record.value()));
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    TypeInformation<Object> type() {
        return switch (this) {
            case BYTES -> (TypeInformation) PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
            case STRING -> (TypeInformation) Types.STRING;
            case JSON -> (TypeInformation) TypeInformation.of(Order.class);
        };
    }

    static Order order(byte[] json) {
        try {
            return MAPPER.readValue(json, Order.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not an order: " + new String(json, StandardCharsets.UTF_8), e);
        }
    }

    /** The official source's JSON schema: the same Jackson call. */
    static final class OrderSchema implements DeserializationSchema<Order> {
        private static final long serialVersionUID = 1L;

        @Override
        public Order deserialize(byte[] message) {
            return order(message);
        }

        @Override
        public boolean isEndOfStream(Order next) {
            return false;
        }

        @Override
        public TypeInformation<Order> getProducedType() {
            return TypeInformation.of(Order.class);
        }
    }
}
