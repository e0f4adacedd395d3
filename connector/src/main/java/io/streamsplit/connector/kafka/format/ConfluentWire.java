package io.streamsplit.connector.kafka.format;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The Confluent wire format both registry formats share: a zero byte, the writer schema's 4-byte id,
 * then the value; the registry and, for writing, the subject the schema is registered under.
 */
final class ConfluentWire implements Serializable {

    private static final long serialVersionUID = 1L;
    static final int HEADER = 5;
    private static final byte MAGIC = 0;

    final SchemaRegistry registry;
    /** The registry's schema type: AVRO or JSON. */
    private final String schemaType;

    private final @Nullable String subject;
    private final boolean autoRegister;
    /** Writer schemas by id, as the registry has them; empty for an id it does not have. */
    private transient @Nullable Map<Integer, Optional<String>> schemas;
    /** The registry's id of the writer schema, once registered (null also after deserialization). */
    private transient @Nullable Integer writerId;

    ConfluentWire(SchemaRegistry registry, String schemaType, @Nullable String subject, boolean autoRegister) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.schemaType = schemaType;
        this.subject = subject;
        this.autoRegister = autoRegister;
    }

    ConfluentWire forSubject(String subject, boolean autoRegister) {
        return new ConfluentWire(registry, schemaType, Objects.requireNonNull(subject, "subject"), autoRegister);
    }

    /** The writer schema id of {@code message}; a bad record when it is not in the wire format. */
    static int id(byte[] message, String what) throws IOException {
        if (message.length < HEADER || message[0] != MAGIC) {
            throw new IOException("Not in the Confluent wire format: " + message.length + " bytes starting with "
                    + (message.length == 0 ? "nothing" : String.format("0x%02x", message[0]))
                    + " (expected 0x00, a 4-byte schema id, then " + what + ")");
        }
        return ByteBuffer.wrap(message, 1, 4).getInt();
    }

    /**
     * The schema registered as {@code id}, looked up once per id; a bad record when the registry does
     * not have it, {@code UnavailableException} when the registry does not answer.
     */
    String writerSchema(int id) throws IOException {
        if (schemas == null) {
            schemas = new HashMap<>();
        }
        Optional<String> schema = schemas.get(id);
        if (schema == null) {
            schema = registry.schema(id);
            schemas.put(id, schema);
        }
        return schema.orElseThrow(() -> new IOException(
                "Written with schema id " + id + ", which " + registry + " does not have (another registry's id?)"));
    }

    /** {@code body} after the header of the writer schema {@code schema}, registered under the subject on first use. */
    byte[] frame(String schema, String schemaName, byte[] body) {
        Integer id = writerId;
        if (id == null) {
            id = register(schema, schemaName);
            writerId = id;
        }
        return ByteBuffer.allocate(HEADER + body.length)
                .put(MAGIC)
                .putInt(id)
                .put(body)
                .array();
    }

    private int register(String schema, String schemaName) {
        if (subject == null) {
            throw new IllegalStateException(
                    "A Confluent wire format writes under a subject: create it with forSubject(\"orders-value\")");
        }
        try {
            if (autoRegister) {
                return registry.register(subject, schema, schemaType);
            }
            return registry.lookup(subject, schema, schemaType)
                    .orElseThrow(() -> new IllegalStateException("The schema " + schemaName
                            + " is not registered under subject " + subject + " in " + registry
                            + ", and auto-registration is off: register it, or turn auto-registration on"));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot register " + schemaName + " under subject " + subject + ": " + e.getMessage(), e);
        }
    }
}
