package io.streamsplit.connector.kafka.format;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
    private static final byte MAGIC = 0;
    private static final int HEADER = 5;

    private final AvroFormat<T> avro;
    private final SchemaRegistry registry;
    private final @Nullable String subject;
    private final boolean autoRegister;
    /** Readers by writer schema id; null for an id the registry does not have. */
    private transient @Nullable Map<Integer, @Nullable DatumReader<T>> readers;

    /** The registry's id of the writer schema, once registered (null also after deserialization). */
    private transient @Nullable Integer writerId;

    private ConfluentAvroFormat(
            AvroFormat<T> avro, SchemaRegistry registry, @Nullable String subject, boolean autoRegister) {
        this.avro = avro;
        this.registry = Objects.requireNonNull(registry, "registry");
        this.subject = subject;
        this.autoRegister = autoRegister;
    }

    /** Records of a generated {@code SpecificRecord} class; its schema is the reader's and the writer's. */
    public static <T extends SpecificRecord> ConfluentAvroFormat<T> specific(Class<T> type, SchemaRegistry registry) {
        return new ConfluentAvroFormat<>(AvroFormat.specific(type), registry, null, true);
    }

    /** {@code GenericRecord}s of {@code schema}, the reader's and the writer's schema. */
    public static ConfluentAvroFormat<GenericRecord> generic(Schema schema, SchemaRegistry registry) {
        return new ConfluentAvroFormat<>(AvroFormat.generic(schema), registry, null, true);
    }

    /**
     * Writes under {@code subject} (Confluent's default names it after the topic: {@code orders-value}),
     * registering the schema there unless {@code autoRegister} is false, when it must be registered
     * already (as with Confluent's {@code auto.register.schemas=false}).
     */
    public ConfluentAvroFormat<T> forSubject(String subject, boolean autoRegister) {
        return new ConfluentAvroFormat<>(avro, registry, Objects.requireNonNull(subject, "subject"), autoRegister);
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
        return registry;
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
        if (message.length < HEADER || message[0] != MAGIC) {
            throw new IOException("Not in the Confluent wire format: " + message.length + " bytes starting with "
                    + (message.length == 0 ? "nothing" : String.format("0x%02x", message[0]))
                    + " (expected 0x00, a 4-byte schema id, then Avro binary)");
        }
        int id = ByteBuffer.wrap(message, 1, 4).getInt();
        Map<Integer, @Nullable DatumReader<T>> known = Objects.requireNonNull(readers);
        if (!known.containsKey(id)) {
            known.put(id, readerFor(id));
        }
        DatumReader<T> reader = known.get(id);
        if (reader == null) {
            throw new IOException(
                    "Written with schema id " + id + ", which " + registry + " does not have (another registry's id?)");
        }
        try {
            return avro.read(reader, message, HEADER);
        } catch (IOException e) {
            throw new IOException("Written with schema id " + id + ": " + e.getMessage(), e);
        }
    }

    private @Nullable DatumReader<T> readerFor(int id) throws IOException {
        Optional<String> written = registry.schema(id);
        if (written.isEmpty()) {
            return null;
        }
        try {
            return avro.readerFor(new Schema.Parser().parse(written.get()));
        } catch (AvroRuntimeException e) {
            throw new IOException("Schema id " + id + " in " + registry + " is not an Avro schema this reader can use ("
                    + e.getMessage() + ")");
        }
    }

    @Override
    public byte[] serialize(T element) {
        prepare();
        Integer id = writerId;
        if (id == null) {
            id = registerWriterSchema();
            writerId = id;
        }
        byte[] body = avro.serialize(element);
        return ByteBuffer.allocate(HEADER + body.length)
                .put(MAGIC)
                .putInt(id)
                .put(body)
                .array();
    }

    private int registerWriterSchema() {
        if (subject == null) {
            throw new IllegalStateException(
                    "A ConfluentAvroFormat writes under a subject: create it with forSubject(\"orders-value\")");
        }
        String schema = avro.schema().toString();
        try {
            if (autoRegister) {
                return registry.register(subject, schema, "AVRO");
            }
            return registry.lookup(subject, schema, "AVRO")
                    .orElseThrow(() -> new IllegalStateException(
                            "The schema " + avro.schema().getFullName()
                                    + " is not registered under subject " + subject + " in " + registry
                                    + ", and auto-registration is off: register it, or turn auto-registration on"));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot register " + avro.schema().getFullName() + " under subject " + subject + ": "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return avro.getProducedType();
    }
}
