package io.streamsplit.connector.kafka.format;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.RowUtils;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON objects read into Flink {@link Row}s of named, typed fields: for topics without a Java class of
 * their own (the fields a SQL table gets as its columns). A field missing from the object, or JSON
 * {@code null}, is a {@code null} field; members the row does not name are ignored.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.JsonRowFormat;
 * import org.apache.flink.api.common.typeinfo.Types;
 *
 * builder.setValueOnlyDeserializer(JsonRowFormat.of(
 *         Types.ROW_NAMED(new String[] {"id", "amount"}, Types.STRING, Types.BIG_DEC)));
 * }</pre>
 *
 * <p>Field types: {@link #FIELD_TYPES}. A value that would change on the way in fails, naming the field: a
 * fraction for an integer field, a number beyond the field's range, a string for a number, a timestamp
 * that does not parse. On a source that makes it a bad record for the bad-record policy. A record without
 * a value (a tombstone) is dropped.
 */
@PublicEvolving
public final class JsonRowFormat implements DeserializationSchema<Row> {

    private static final long serialVersionUID = 1L;

    /**
     * What a field may be: {@code String} (JSON strings; other scalars as their text, objects and arrays as
     * their JSON), {@code Boolean}, {@code Byte}, {@code Short}, {@code Integer}, {@code Long}, {@code Float},
     * {@code Double}, {@code BigDecimal}, {@code LocalDate} ({@code "2026-12-04"}), {@code LocalDateTime}
     * ({@code "2026-12-04T10:15:30"} or {@code "2026-12-04 10:15:30"}), {@code Instant} (ISO-8601 with an
     * offset, or epoch milliseconds) and {@code byte[]} (Base64).
     */
    public static final List<TypeInformation<?>> FIELD_TYPES = List.of(
            Types.STRING,
            Types.BOOLEAN,
            Types.BYTE,
            Types.SHORT,
            Types.INT,
            Types.LONG,
            Types.FLOAT,
            Types.DOUBLE,
            Types.BIG_DEC,
            Types.LOCAL_DATE,
            Types.LOCAL_DATE_TIME,
            Types.INSTANT,
            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    private final RowTypeInfo type;
    private transient @Nullable ObjectReader reader;
    private transient @Nullable LinkedHashMap<String, Integer> positions;

    private JsonRowFormat(RowTypeInfo type) {
        this.type = type;
    }

    /**
     * Rows of {@code type}'s field names and types.
     *
     * @throws IllegalArgumentException for a field of a type not in {@link #FIELD_TYPES}
     */
    public static JsonRowFormat of(RowTypeInfo type) {
        for (int i = 0; i < type.getArity(); i++) {
            if (!FIELD_TYPES.contains(type.getTypeAt(i))) {
                throw new IllegalArgumentException("Field '" + type.getFieldNames()[i] + "' is of type "
                        + type.getTypeAt(i) + ", which JsonRowFormat does not read; the types it reads: "
                        + FIELD_TYPES);
            }
        }
        return new JsonRowFormat(type);
    }

    @Override
    public void open(InitializationContext context) {
        prepare();
    }

    private ObjectReader prepare() {
        if (reader == null) {
            // numbers keep every digit until a field's type decides what they become
            reader = JsonMapper.builder()
                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                    .build()
                    .reader();
        }
        return reader;
    }

    @Override
    public @Nullable Row deserialize(byte @Nullable [] message) throws IOException {
        if (message == null) {
            return null; // a tombstone: nothing to read
        }
        JsonNode json;
        try {
            json = prepare().readTree(message);
        } catch (JacksonException e) {
            throw new IOException("Not JSON: " + e.getOriginalMessage(), e);
        }
        if (json == null || !json.isObject()) {
            throw new IOException("JSON does not fit a row of " + List.of(type.getFieldNames()) + ": the value is "
                    + (json == null ? "empty" : json.getNodeType().name().toLowerCase(Locale.ROOT))
                    + ", not an object");
        }
        String[] names = type.getFieldNames();
        @Nullable Object[] fields = new Object[names.length];
        for (int i = 0; i < names.length; i++) {
            JsonNode field = json.get(names[i]);
            fields[i] = field == null || field.isNull() ? null : value(names[i], type.getTypeAt(i), field);
        }
        // by position and by name, as the rows Flink's RowSerializer gives back
        return RowUtils.createRowWithNamedPositions(RowKind.INSERT, fields, positions());
    }

    private LinkedHashMap<String, Integer> positions() {
        if (positions == null) {
            LinkedHashMap<String, Integer> byName = new LinkedHashMap<>();
            String[] names = type.getFieldNames();
            for (int i = 0; i < names.length; i++) {
                byName.put(names[i], i);
            }
            positions = byName;
        }
        return positions;
    }

    private static Object value(String name, TypeInformation<?> fieldType, JsonNode json) throws IOException {
        if (fieldType.equals(Types.STRING)) {
            return json.isValueNode() ? json.asString() : json.toString();
        }
        if (fieldType.equals(Types.BOOLEAN)) {
            if (!json.isBoolean()) {
                throw mismatch(name, fieldType, json, "true or false");
            }
            return json.booleanValue();
        }
        if (fieldType.equals(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)) {
            try {
                return Base64.getDecoder().decode(text(name, fieldType, json));
            } catch (IllegalArgumentException e) {
                throw mismatch(name, fieldType, json, "Base64");
            }
        }
        if (fieldType.equals(Types.LOCAL_DATE)
                || fieldType.equals(Types.LOCAL_DATE_TIME)
                || fieldType.equals(Types.INSTANT)) {
            return time(name, fieldType, json);
        }
        if (!json.isNumber()) {
            throw mismatch(name, fieldType, json, "a number");
        }
        BigDecimal number = json.decimalValue();
        if (fieldType.equals(Types.BIG_DEC)) {
            return number;
        }
        if (fieldType.equals(Types.DOUBLE)) {
            return number.doubleValue();
        }
        if (fieldType.equals(Types.FLOAT)) {
            return number.floatValue();
        }
        long whole;
        try {
            whole = number.longValueExact();
        } catch (ArithmeticException e) {
            throw mismatch(name, fieldType, json, "a whole number in the field's range");
        }
        long min = fieldType.equals(Types.BYTE)
                ? Byte.MIN_VALUE
                : fieldType.equals(Types.SHORT)
                        ? Short.MIN_VALUE
                        : fieldType.equals(Types.INT) ? Integer.MIN_VALUE : Long.MIN_VALUE;
        long max = -(min + 1);
        if (whole < min || whole > max) {
            throw mismatch(name, fieldType, json, "a whole number from " + min + " to " + max);
        }
        if (fieldType.equals(Types.BYTE)) {
            return (byte) whole;
        }
        if (fieldType.equals(Types.SHORT)) {
            return (short) whole;
        }
        return fieldType.equals(Types.INT) ? (Object) (int) whole : (Object) whole;
    }

    private static Object time(String name, TypeInformation<?> fieldType, JsonNode json) throws IOException {
        if (fieldType.equals(Types.INSTANT) && json.isIntegralNumber()) {
            return Instant.ofEpochMilli(json.longValue());
        }
        String text = text(name, fieldType, json);
        try {
            if (fieldType.equals(Types.LOCAL_DATE)) {
                return LocalDate.parse(text);
            }
            if (fieldType.equals(Types.LOCAL_DATE_TIME)) {
                return LocalDateTime.parse(text.replace(' ', 'T'));
            }
            return OffsetDateTime.parse(text.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException e) {
            throw mismatch(
                    name,
                    fieldType,
                    json,
                    fieldType.equals(Types.LOCAL_DATE)
                            ? "a date like 2026-12-04"
                            : fieldType.equals(Types.LOCAL_DATE_TIME)
                                    ? "a timestamp like 2026-12-04T10:15:30"
                                    : "a timestamp with an offset like 2026-12-04T10:15:30Z, or epoch milliseconds");
        }
    }

    private static String text(String name, TypeInformation<?> fieldType, JsonNode json) throws IOException {
        if (!json.isString()) {
            throw mismatch(name, fieldType, json, "a string");
        }
        return json.asString();
    }

    private static IOException mismatch(String name, TypeInformation<?> fieldType, JsonNode json, String expected) {
        String shown = json.toString();
        if (shown.length() > 60) {
            shown = shown.substring(0, 57) + "...";
        }
        return new IOException("JSON does not fit field '" + name + "' (" + fieldType + ") at $." + name + ": " + shown
                + " is not " + expected);
    }

    @Override
    public boolean isEndOfStream(Row nextElement) {
        return false;
    }

    @Override
    public RowTypeInfo getProducedType() {
        return type;
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof JsonRowFormat format && format.type.equals(type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type);
    }
}
