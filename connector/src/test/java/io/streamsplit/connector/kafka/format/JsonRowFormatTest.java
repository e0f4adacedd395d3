package io.streamsplit.connector.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

class JsonRowFormatTest {

    private static final String[] NAMES = {
        "id", "paid", "tiny", "small", "count", "cents", "ratio", "score", "amount", "day", "at", "placed", "raw"
    };

    /** A field of each type the format reads, in the order of {@link JsonRowFormat#FIELD_TYPES}. */
    private static final RowTypeInfo TYPE =
            new RowTypeInfo(JsonRowFormat.FIELD_TYPES.toArray(TypeInformation<?>[]::new), NAMES);

    @Test
    void readsEveryFieldTypeByNameAndPositionAfterTravellingWithTheJob() throws Exception {
        JsonRowFormat format = travelled(JsonRowFormat.of(TYPE));
        Row row = format.deserialize(json("{\"id\":\"o-1\",\"paid\":true,\"tiny\":-128,\"small\":300,\"count\":7,"
                + "\"cents\":9007199254740993,\"ratio\":0.5,\"score\":2.25,\"amount\":12345678901234567890.125,"
                + "\"day\":\"2026-12-04\",\"at\":\"2026-12-04 10:15:30.5\",\"placed\":\"2026-12-04T10:15:30+01:00\","
                + "\"raw\":\"AQI=\",\"ignored\":{\"a\":1}}"));

        assertThat(row.getField("id")).isEqualTo("o-1");
        assertThat(row.getField(0)).isEqualTo("o-1");
        assertThat(row.getField("paid")).isEqualTo(true);
        assertThat(row.getField("tiny")).isEqualTo((byte) -128);
        assertThat(row.getField("small")).isEqualTo((short) 300);
        assertThat(row.getField("count")).isEqualTo(7);
        assertThat(row.getField("cents")).isEqualTo(9007199254740993L); // beyond a double's exact integers
        assertThat(row.getField("ratio")).isEqualTo(0.5f);
        assertThat(row.getField("score")).isEqualTo(2.25);
        assertThat(row.getField("amount")).isEqualTo(new BigDecimal("12345678901234567890.125"));
        assertThat(row.getField("day")).isEqualTo(LocalDate.of(2026, 12, 4));
        assertThat(row.getField("at")).isEqualTo(LocalDateTime.of(2026, 12, 4, 10, 15, 30, 500_000_000));
        assertThat(row.getField("placed")).isEqualTo(Instant.parse("2026-12-04T09:15:30Z"));
        assertThat((byte[]) row.getField("raw")).containsExactly(1, 2);
        assertThat(row.getArity()).isEqualTo(NAMES.length);
        // what Flink's serializer for the produced type gives back is the same row
        assertThat(copied(row, format.getProducedType())).isEqualTo(row);
    }

    @Test
    void missingAndNullFieldsAreNullAndOtherScalarsAreTextForAStringField() throws Exception {
        JsonRowFormat format = JsonRowFormat.of(new RowTypeInfo(
                new TypeInformation<?>[] {Types.STRING, Types.LONG, Types.INSTANT},
                new String[] {"note", "cents", "placed"}));

        Row row = format.deserialize(json("{\"note\":{\"nested\":[1,2]},\"cents\":null,\"placed\":1764842130000}"));
        assertThat(row.getField("note")).isEqualTo("{\"nested\":[1,2]}");
        assertThat(row.getField("cents")).isNull();
        assertThat(row.getField("placed")).isEqualTo(Instant.ofEpochMilli(1764842130000L));

        assertThat(format.deserialize(json("{\"note\":42}")).getField("note")).isEqualTo("42");
        assertThat(format.deserialize(json("{}")).getField("placed")).isNull();
        assertThat(format.deserialize(null)).as("a tombstone").isNull();
    }

    @Test
    void aValueThatWouldChangeOnTheWayInIsABadRecordNamingItsField() {
        JsonRowFormat format = JsonRowFormat.of(TYPE);

        assertThatThrownBy(() -> format.deserialize(json("{\"cents\":5.7}")))
                .isInstanceOf(IOException.class)
                .hasMessage("JSON does not fit field 'cents' (Long) at $.cents: 5.7 is not a whole number in the"
                        + " field's range");
        assertThatThrownBy(() -> format.deserialize(json("{\"tiny\":128}")))
                .hasMessageContaining("field 'tiny'")
                .hasMessageContaining("128 is not a whole number from -128 to 127");
        assertThatThrownBy(() -> format.deserialize(json("{\"count\":\"7\"}")))
                .hasMessageContaining("field 'count'")
                .hasMessageContaining("\"7\" is not a number");
        assertThatThrownBy(() -> format.deserialize(json("{\"paid\":\"yes\"}")))
                .hasMessageContaining("\"yes\" is not true or false");
        assertThatThrownBy(() -> format.deserialize(json("{\"at\":\"yesterday\"}")))
                .hasMessageContaining("field 'at'")
                .hasMessageContaining("is not a timestamp like 2026-12-04T10:15:30");
        assertThatThrownBy(() -> format.deserialize(json("{\"placed\":\"2026-12-04T10:15:30\"}")))
                .as("an instant needs its offset")
                .hasMessageContaining("is not a timestamp with an offset");
        assertThatThrownBy(() -> format.deserialize(json("[1,2]")))
                .hasMessageContaining("the value is array, not an object");
        assertThatThrownBy(() -> format.deserialize(json("{\"id\":")))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("Not JSON: ");
    }

    @Test
    void aFieldTypeItCannotReadIsRefusedWhenBuilt() {
        assertThatThrownBy(() -> JsonRowFormat.of(
                        new RowTypeInfo(new TypeInformation<?>[] {Types.LIST(Types.STRING)}, new String[] {"tags"})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Field 'tags' is of type List<String>");
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Row copied(Row row, TypeInformation<Row> type) throws IOException {
        TypeSerializer<Row> serializer = type.createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(row, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    private static JsonRowFormat travelled(JsonRowFormat format) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(format);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (JsonRowFormat) in.readObject();
        }
    }
}
