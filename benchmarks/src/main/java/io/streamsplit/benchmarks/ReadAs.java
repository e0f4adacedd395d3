package io.streamsplit.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamsplit.benchmarks.proto.OrderProto;
import io.streamsplit.connector.kafka.format.JsonFormat;
import io.streamsplit.connector.kafka.format.ProtobufFormat;
import io.streamsplit.connector.kafka.format.ProtobufTypeInfo;
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
 * UTF-8 String, or a small JSON object read into a POJO. JSON records have their natural size
 * (about 60 B) whatever {@code --record-size} says, and are read three ways: {@link #JSON} with
 * Jackson 2 (the figures in docs/benchmarks.md), {@link #JSON3} with a hand-written Jackson 3 bean as
 * a Spring Boot 4 application writes one, {@link #JSON_FORMAT} with the connector's own
 * {@code JsonFormat} ({@code format: json}). The same orders as Protobuf messages (about 30 B) are read
 * two ways: {@link #PROTOBUF} with the connector's {@code ProtobufFormat} ({@code format: protobuf}), and
 * {@link #PROTOBUF_HAND} with a hand-written deserializer as a user writes one without it
 * ({@code OrderProto.parseFrom(bytes)}, the type left to Flink: Kryo).
 */
public enum ReadAs {
    BYTES,
    STRING,
    JSON,
    JSON3,
    JSON_FORMAT,
    PROTOBUF,
    PROTOBUF_HAND;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final tools.jackson.databind.json.JsonMapper MAPPER3 =
            tools.jackson.databind.json.JsonMapper.builder().build();

    /** A small order, as a Flink POJO. */
    public static final class Order {
        public long id;
        public String customer;
        public long cents;
        public long timestamp;
    }

    public static ReadAs parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** Whether the records are the small JSON orders. */
    public boolean json() {
        return this == JSON || this == JSON3 || this == JSON_FORMAT;
    }

    /** Whether the records are the orders as Protobuf messages. */
    public boolean protobuf() {
        return this == PROTOBUF || this == PROTOBUF_HAND;
    }

    /** Whether the records are orders of their natural size (JSON or Protobuf), whatever --record-size says. */
    public boolean orders() {
        return json() || protobuf();
    }

    /** Whether two formats read the same records, so that they can race in one round. */
    public boolean sameRecords(ReadAs other) {
        return json() == other.json() && protobuf() == other.protobuf();
    }

    /** The value of record {@code i}. */
    public IntFunction<byte[]> values(int size) {
        if (protobuf()) {
            return i -> protoOrder(i).toByteArray();
        }
        if (!json()) {
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
            case JSON -> ReadAs::order;
            case JSON3, JSON_FORMAT -> ReadAs::order3;
            case PROTOBUF, PROTOBUF_HAND -> ReadAs::parseOrder;
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
                (KafkaRecordDeserializationSchema) KafkaRecordDeserializationSchema.valueOnly(new OrderSchema(false));
            case JSON3 ->
                (KafkaRecordDeserializationSchema) KafkaRecordDeserializationSchema.valueOnly(new OrderSchema(true));
            case JSON_FORMAT ->
                (KafkaRecordDeserializationSchema)
                        KafkaRecordDeserializationSchema.valueOnly(JsonFormat.of(Order.class));
            case PROTOBUF ->
                (KafkaRecordDeserializationSchema)
                        KafkaRecordDeserializationSchema.valueOnly(ProtobufFormat.of(OrderProto.class));
            case PROTOBUF_HAND ->
                (KafkaRecordDeserializationSchema) KafkaRecordDeserializationSchema.valueOnly(new HandWrittenProto());
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
            case JSON3 ->
                (KafkaRecordEmitter) (KafkaRecordEmitter<Order>) (record, out) -> out.collect(order3(record.value()));
            case JSON_FORMAT -> (KafkaRecordEmitter) KafkaRecordEmitter.valueOnly(JsonFormat.of(Order.class));
            case PROTOBUF -> (KafkaRecordEmitter) KafkaRecordEmitter.valueOnly(ProtobufFormat.of(OrderProto.class));
            case PROTOBUF_HAND -> (KafkaRecordEmitter) KafkaRecordEmitter.valueOnly(new HandWrittenProto());
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    TypeInformation<Object> type() {
        return switch (this) {
            case BYTES -> (TypeInformation) PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
            case STRING -> (TypeInformation) Types.STRING;
            case JSON, JSON3, JSON_FORMAT -> (TypeInformation) TypeInformation.of(Order.class);
            case PROTOBUF -> (TypeInformation) new ProtobufTypeInfo<>(OrderProto.class);
            case PROTOBUF_HAND -> (TypeInformation) TypeInformation.of(OrderProto.class);
        };
    }

    static Order order(byte[] json) {
        try {
            return MAPPER.readValue(json, Order.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not an order: " + new String(json, StandardCharsets.UTF_8), e);
        }
    }

    /** What a hand-written Jackson 3 bean does: one shared mapper, one readValue per record. */
    static Order order3(byte[] json) {
        return MAPPER3.readValue(json, Order.class);
    }

    /** Order {@code i} as a Protobuf message: the same fields as the JSON order. */
    static OrderProto protoOrder(int i) {
        String[] customers = {"alice", "bob", "carol", "dave"};
        return OrderProto.newBuilder()
                .setId(i)
                .setCustomer(customers[i % 4])
                .setCents((i * 37L) % 10_000)
                .setTimestamp(1_700_000_000_000L + i)
                .build();
    }

    static OrderProto parseOrder(byte[] bytes) {
        try {
            return OrderProto.parseFrom(bytes);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("not an order", e);
        }
    }

    /** What a user writes without format protobuf: parseFrom, and the type left to Flink (Kryo). */
    static final class HandWrittenProto implements DeserializationSchema<OrderProto> {
        private static final long serialVersionUID = 1L;

        @Override
        public OrderProto deserialize(byte[] message) throws IOException {
            return OrderProto.parseFrom(message);
        }

        @Override
        public boolean isEndOfStream(OrderProto next) {
            return false;
        }

        @Override
        public TypeInformation<OrderProto> getProducedType() {
            return TypeInformation.of(OrderProto.class);
        }
    }

    /** The official source's schema for {@link #order} or {@link #order3}: the same Jackson call as our path. */
    static final class OrderSchema implements DeserializationSchema<Order> {
        private static final long serialVersionUID = 1L;

        private final boolean jackson3;

        OrderSchema(boolean jackson3) {
            this.jackson3 = jackson3;
        }

        @Override
        public Order deserialize(byte[] message) {
            return jackson3 ? order3(message) : order(message);
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
