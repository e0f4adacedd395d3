package io.streamsplit.connector.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

class FormatsTest {

    public record Line(String sku, int quantity) {}

    public record Order(String id, BigDecimal total, Instant placedAt, List<Line> lines) {}

    @Test
    void jsonReadsAndWritesRecordsWithJavaTimeFields() throws IOException {
        JsonFormat<Order> format = roundTrip(JsonFormat.of(Order.class));
        byte[] json = ("{\"id\":\"o-1\",\"total\":12.50,\"placedAt\":\"2026-01-31T10:15:30Z\","
                        + "\"lines\":[{\"sku\":\"A\",\"quantity\":2}]}")
                .getBytes(StandardCharsets.UTF_8);

        Order order = format.deserialize(json);

        assertThat(order)
                .isEqualTo(new Order(
                        "o-1",
                        new BigDecimal("12.50"),
                        Instant.parse("2026-01-31T10:15:30Z"),
                        List.of(new Line("A", 2))));
        assertThat(format.deserialize(format.serialize(order))).isEqualTo(order);
    }

    @Test
    void jsonThatDoesNotFitNamesThePathThatFailed() {
        JsonFormat<Order> format = JsonFormat.of(Order.class);
        byte[] json =
                "{\"id\":\"o-1\",\"lines\":[{\"sku\":\"A\",\"quantity\":2},{\"sku\":\"B\",\"quantity\":\"many\"}]}"
                        .getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> format.deserialize(json))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("does not fit " + Order.class.getName())
                .hasMessageContaining("$.lines[1].quantity");
        assertThatThrownBy(() -> format.deserialize("not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("at $");
    }

    /** What would change the data on the way in is a bad record, not a silently different value. */
    @Test
    void jsonThatWouldLoseDataIsABadRecordWithAnyMapper() {
        for (JsonFormat<Line> format : List.of(
                JsonFormat.of(Line.class),
                JsonFormat.of(Line.class, JsonMapper.builder().build()))) {
            assertThatThrownBy(() -> format.deserialize(bytes("{\"sku\":\"A\",\"quantity\":5.7}")))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("$.quantity");
            assertThatThrownBy(() -> format.deserialize(bytes("{\"sku\":\"A\",\"quantity\":null}")))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("$.quantity");
            assertThatThrownBy(() -> format.deserialize(bytes("null")))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("the value is JSON null");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void jsonUsesTheGivenMappersSettingsAfterTravellingWithTheJob() throws Exception {
        JsonMapper snake = JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .findAndAddModules()
                .build();
        JsonFormat<Order> format = roundTrip(JsonFormat.of(Order.class, snake));

        Order order = format.deserialize(
                ("{\"id\":\"o-2\",\"total\":1,\"placed_at\":\"2026-01-31T10:15:30Z\"," + "\"lines\":[]}")
                        .getBytes(StandardCharsets.UTF_8));

        assertThat(order.placedAt()).isEqualTo(Instant.parse("2026-01-31T10:15:30Z"));
        assertThat(new String(format.serialize(order), StandardCharsets.UTF_8)).contains("\"placed_at\"");
    }

    @Test
    void aTombstoneIsNoElementInEveryFormat() throws IOException {
        assertThat(JsonFormat.of(Order.class).deserialize(null)).isNull();
        assertThat(TextFormat.utf8().deserialize(null)).isNull();
        assertThat(BytesFormat.INSTANCE.deserialize(null)).isNull();
        assertThat(AvroFormat.specific(AvroOrder.class).deserialize(null)).isNull();
    }

    @Test
    void recordsAndPojosGetFlinksPojoSerializerNotKryo() {
        TypeInformation<Order> type = JsonFormat.of(Order.class).getProducedType();

        assertThat(type).isInstanceOf(PojoTypeInfo.class);
        assertThat(serializer(type)).isNotInstanceOf(KryoSerializer.class);
    }

    @Test
    void textUsesItsCharset() throws Exception {
        TextFormat latin1 = roundTrip(TextFormat.of(StandardCharsets.ISO_8859_1));

        assertThat(latin1.serialize("Grüße")).isEqualTo("Grüße".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(latin1.deserialize(new byte[] {(byte) 0xFC})).isEqualTo("ü");
    }

    /** Bytes that are not text in the charset are a bad record, not text with replacement characters. */
    @Test
    void bytesThatAreNotTextInTheCharsetFailTheRecord() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> TextFormat.utf8().deserialize(new byte[] {(byte) 0xC3, (byte) 0x28}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Not UTF-8 text (2 bytes)");
    }

    @Test
    void avroSpecificRecordsReadRawAndSingleObjectEncoding() throws Exception {
        AvroFormat<AvroOrder> format = roundTrip(AvroFormat.specific(AvroOrder.class));
        AvroOrder order = new AvroOrder("o-3", 42);

        byte[] raw = format.serialize(order);
        ByteBuffer singleObject =
                new BinaryMessageEncoder<AvroOrder>(SpecificData.get(), AvroOrder.SCHEMA$).encode(order);

        assertThat(format.deserialize(raw)).isEqualTo(order);
        assertThat(format.deserialize(toArray(singleObject))).isEqualTo(order);
        assertThat(serializer(format.getProducedType())).isNotInstanceOf(KryoSerializer.class);
    }

    @Test
    void avroSingleObjectRecordOfAnotherSchemaNamesBothFingerprints() {
        Schema other = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"Other\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}");
        GenericRecord record = new GenericData.Record(other);
        record.put("x", 1);

        assertThatThrownBy(() -> AvroFormat.specific(AvroOrder.class)
                        .deserialize(toArray(
                                new BinaryMessageEncoder<GenericRecord>(GenericData.get(), other).encode(record))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("schema fingerprint")
                .hasMessageContaining(AvroOrder.class.getName());
    }

    @Test
    void avroGenericRecordsOfASchemaAndBadBytesAreABadRecord() throws Exception {
        AvroFormat<GenericRecord> format = roundTrip(AvroFormat.generic(AvroOrder.SCHEMA$));
        GenericRecord record = new GenericData.Record(AvroOrder.SCHEMA$);
        record.put("id", "o-4");
        record.put("amount", 7L);

        GenericRecord read = format.deserialize(format.serialize(record));

        assertThat(read.get("id").toString()).isEqualTo("o-4");
        assertThat(read.get("amount")).isEqualTo(7L);
        assertThatThrownBy(() -> format.deserialize(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Not an Avro " + AvroOrder.class.getName() + " record");
    }

    @Test
    void keyedReadsTheKeyAndTheValueIntoOneTypedElement() throws Exception {
        var deserializer = roundTrip(Keyed.deserializer(TextFormat.utf8(), JsonFormat.of(Line.class)));
        var type = Keyed.typeInfo(TextFormat.utf8(), JsonFormat.of(Line.class));

        Keyed<String, Line> keyed = deserializer.deserialize(record("c-1", "{\"sku\":\"A\",\"quantity\":3}"));
        Keyed<String, Line> noKey = deserializer.deserialize(record(null, "{\"sku\":\"B\",\"quantity\":1}"));

        assertThat(keyed).isEqualTo(new Keyed<>("c-1", new Line("A", 3)));
        assertThat(noKey).isEqualTo(new Keyed<>(null, new Line("B", 1)));
        assertThat(deserializer.deserialize(record("c-1", null))).isNull();
        TypeSerializer<Keyed<String, Line>> serializer = serializer(type);
        assertThat(serializer).isNotInstanceOf(KryoSerializer.class);
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(keyed, out);
        assertThat(serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isEqualTo(keyed);
    }

    private static ConsumerRecord<byte[], byte[]> record(String key, String value) {
        return new ConsumerRecord<>(
                "orders",
                0,
                0L,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    /** Generic types off, as in a job with pipeline.generic-types: false: Kryo would throw here. */
    private static <T> TypeSerializer<T> serializer(TypeInformation<T> type) {
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false);
        return type.createSerializer(config);
    }

    private static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** What travels to a TaskManager: the format Java-serialized and read back. */
    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException(e);
        }
    }
}
