package io.streamsplit.connector.kafka.format;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.jspecify.annotations.Nullable;

/**
 * Avro in the Confluent wire format: a zero byte, the writer schema's 4-byte id in a schema registry,
 * then Avro binary — what Confluent's {@code KafkaAvroSerializer} writes. Reads each record with the
 * schema its id names, resolved to this format's schema (Avro's schema evolution: fields the reader
 * lacks are skipped, fields the writer lacks take their defaults); writes with this format's schema,
 * registered under a subject on first use.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.ConfluentAvroFormat;
 * import io.streamsplit.connector.kafka.format.SchemaRegistry;
 *
 * SchemaRegistry registry = SchemaRegistry.at("http://registry:8081");
 * builder.setValueOnlyDeserializer(ConfluentAvroFormat.specific(Order.class, registry));
 * sink.setValueSerializationSchema(ConfluentAvroFormat.specific(Order.class, registry).forSubject("orders-value"));
 * }</pre>
 *
 * <p>A record that is not in the wire format, names an id the registry does not have, or was written
 * with a schema this one cannot read is a bad record (the source's policy applies); a registry that
 * does not answer is not the record's fault ({@link KafkaRecordDeserializer.UnavailableException}).
 *
 * @param <T> the element type
 */
@PublicEvolving
public final class ConfluentAvroFormat<T> extends TwoWayFormat<T> {

    private static final long serialVersionUID = 1L;

    private final AvroFormat<T> avro;
    private final ConfluentWire wire;
    /** Readers by writer schema id. */
    private transient @Nullable Map<Integer, DatumReader<T>> readers;

    private ConfluentAvroFormat(AvroFormat<T> avro, ConfluentWire wire) {
        this.avro = avro;
        this.wire = wire;
    }

    /** Records of a generated {@code SpecificRecord} class; its schema is the reader's and the writer's. */
    public static <T extends SpecificRecord> ConfluentAvroFormat<T> specific(Class<T> type, SchemaRegistry registry) {
        return new ConfluentAvroFormat<>(AvroFormat.specific(type), new ConfluentWire(registry, "AVRO", null, true));
    }

    /** {@code GenericRecord}s of {@code schema}, the reader's and the writer's schema. */
    public static ConfluentAvroFormat<GenericRecord> generic(Schema schema, SchemaRegistry registry) {
        return new ConfluentAvroFormat<>(AvroFormat.generic(schema), new ConfluentWire(registry, "AVRO", null, true));
    }

    /**
     * Writes under {@code subject} (Confluent's default names it after the topic: {@code orders-value}),
     * registering the schema there unless {@code autoRegister} is false, when it must be registered
     * already (as with Confluent's {@code auto.register.schemas=false}).
     */
    public ConfluentAvroFormat<T> forSubject(String subject, boolean autoRegister) {
        return new ConfluentAvroFormat<>(avro, wire.forSubject(subject, autoRegister));
    }

    /** {@link #forSubject(String, boolean)} with auto-registration, Confluent's default. */
    public ConfluentAvroFormat<T> forSubject(String subject) {
        return forSubject(subject, true);
    }

    /** This format's schema: the reader's, and the writer's. */
    public Schema schema() {
        return avro.schema();
    }

    /** The registry it reads schema ids from. */
    public SchemaRegistry registry() {
        return wire.registry;
    }

    @Override
    void prepare() {
        avro.prepare();
        if (readers == null) {
            readers = new HashMap<>();
        }
    }

    @Override
    public @Nullable T deserialize(byte @Nullable [] message) throws IOException {
        if (message == null) {
            return null; // a tombstone: nothing to read
        }
        prepare();
        int id = ConfluentWire.id(message, "Avro binary");
        Map<Integer, DatumReader<T>> known = Objects.requireNonNull(readers);
        DatumReader<T> reader = known.get(id);
        if (reader == null) {
            reader = readerFor(id, wire.writerSchema(id));
            known.put(id, reader);
        }
        try {
            return avro.read(reader, message, ConfluentWire.HEADER);
        } catch (IOException e) {
            throw new IOException("Written with schema id " + id + ": " + e.getMessage(), e);
        }
    }

    private DatumReader<T> readerFor(int id, String writerSchema) throws IOException {
        try {
            return avro.readerFor(new Schema.Parser().parse(writerSchema));
        } catch (AvroRuntimeException e) {
            throw new IOException("Schema id " + id + " in " + wire.registry
                    + " is not an Avro schema this reader can use (" + e.getMessage() + ")");
        }
    }

    @Override
    public byte[] serialize(T element) {
        prepare();
        return wire.frame(avro.schema().toString(), avro.schema().getFullName(), avro.serialize(element));
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return avro.getProducedType();
    }
}
