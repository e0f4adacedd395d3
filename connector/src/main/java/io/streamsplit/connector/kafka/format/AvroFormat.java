package io.streamsplit.connector.kafka.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.formats.avro.typeutils.GenericRecordAvroTypeInfo;
import org.jspecify.annotations.Nullable;

/**
 * Avro values: generated {@code SpecificRecord} classes, or {@code GenericRecord}s of a schema. Reads
 * both Avro's raw binary encoding and its single-object encoding (the {@code C3 01} marker and the
 * schema's 64-bit fingerprint before the binary, as {@code BinaryMessageEncoder} writes it; another
 * fingerprint fails with both named). Writes raw binary, as Flink's own Avro format does.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.AvroFormat;
 *
 * builder.setValueOnlyDeserializer(AvroFormat.specific(Order.class));
 * builder.setValueOnlyDeserializer(AvroFormat.generic(new Schema.Parser().parse(orderSchemaJson)));
 * }</pre>
 *
 * @param <T> the element type
 */
@PublicEvolving
public final class AvroFormat<T> extends TwoWayFormat<T> {

    private static final long serialVersionUID = 1L;
    private static final byte[] SINGLE_OBJECT_MARKER = {(byte) 0xC3, 0x01};
    private static final int SINGLE_OBJECT_HEADER = 10;

    private final @Nullable Class<T> specificType;
    private final String schemaJson;
    private transient @Nullable Schema schema;
    private transient @Nullable DatumReader<T> reader;
    private transient @Nullable DatumWriter<T> writer;
    private transient @Nullable BinaryDecoder decoder;
    private transient long fingerprint;

    private AvroFormat(@Nullable Class<T> specificType, Schema schema) {
        this.specificType = specificType;
        this.schemaJson = schema.toString();
    }

    /** Records of a generated {@code SpecificRecord} class, with the schema the class carries. */
    public static <T extends SpecificRecord> AvroFormat<T> specific(Class<T> type) {
        return new AvroFormat<>(
                Objects.requireNonNull(type, "type"), SpecificData.get().getSchema(type));
    }

    /** {@code GenericRecord}s of {@code schema}. */
    public static AvroFormat<GenericRecord> generic(Schema schema) {
        return new AvroFormat<>(null, Objects.requireNonNull(schema, "schema"));
    }

    /** The writer's and reader's schema. */
    public Schema schema() {
        prepare();
        return Objects.requireNonNull(schema);
    }

    @Override
    void prepare() {
        if (schema != null) {
            return;
        }
        Schema parsed = new Schema.Parser().parse(schemaJson);
        fingerprint = SchemaNormalization.parsingFingerprint64(parsed);
        if (specificType != null) {
            reader = new SpecificDatumReader<>(specificType);
            writer = new SpecificDatumWriter<>(specificType);
        } else {
            reader = new GenericDatumReader<>(parsed);
            writer = new GenericDatumWriter<>(parsed);
        }
        schema = parsed;
    }

    @Override
    public @Nullable T deserialize(byte @Nullable [] message) throws IOException {
        if (message == null) {
            return null; // a tombstone: nothing to read
        }
        prepare();
        int offset = 0;
        if (message.length >= SINGLE_OBJECT_HEADER && Arrays.equals(message, 0, 2, SINGLE_OBJECT_MARKER, 0, 2)) {
            long written = 0;
            for (int i = 9; i >= 2; i--) { // little-endian, as Avro's BinaryMessageEncoder writes it
                written = (written << 8) | (message[i] & 0xFF);
            }
            if (written != fingerprint) {
                throw new IOException("Avro single-object record written with schema fingerprint "
                        + Long.toHexString(written) + ", but this source reads "
                        + Objects.requireNonNull(schema).getFullName() + " (fingerprint "
                        + Long.toHexString(fingerprint) + ")");
            }
            offset = SINGLE_OBJECT_HEADER;
        }
        return read(Objects.requireNonNull(reader), message, offset);
    }

    /** Reads the binary record from {@code offset} on with {@code datumReader}. */
    T read(DatumReader<T> datumReader, byte[] message, int offset) throws IOException {
        decoder = DecoderFactory.get().binaryDecoder(message, offset, message.length - offset, decoder);
        try {
            return datumReader.read(null, decoder);
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    "Not an Avro " + Objects.requireNonNull(schema).getFullName() + " record: " + e, e);
        }
    }

    /** A reader of records written with {@code writerSchema}, resolved to this format's schema (Avro's schema evolution). */
    DatumReader<T> readerFor(Schema writerSchema) {
        Schema readerSchema = schema();
        return specificType != null
                ? new SpecificDatumReader<>(writerSchema, readerSchema)
                : new GenericDatumReader<>(writerSchema, readerSchema);
    }

    @Override
    public byte[] serialize(T element) {
        prepare();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        try {
            Objects.requireNonNull(writer).write(element, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot write " + element + " as Avro: " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public TypeInformation<T> getProducedType() {
        if (specificType != null) {
            return new AvroTypeInfo(specificType);
        }
        return (TypeInformation<T>) new GenericRecordAvroTypeInfo(new Schema.Parser().parse(schemaJson));
    }
}
