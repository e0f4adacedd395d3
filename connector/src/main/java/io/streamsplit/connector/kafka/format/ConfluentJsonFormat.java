package io.streamsplit.connector.kafka.format;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.jspecify.annotations.Nullable;

/**
 * JSON in the Confluent wire format: a zero byte, the id of a JSON Schema in a schema registry, then
 * the JSON — what Confluent's {@code KafkaJsonSchemaSerializer} writes. Reads the JSON into the type of
 * its {@link JsonFormat} (the id must be one the registry has, as Confluent's deserializer requires;
 * the JSON is not validated against that schema, Confluent's default); writes with a JSON Schema you
 * give, registered under a subject on first use.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.ConfluentJsonFormat;
 * import io.streamsplit.connector.kafka.format.JsonFormat;
 * import io.streamsplit.connector.kafka.format.SchemaRegistry;
 *
 * SchemaRegistry registry = SchemaRegistry.at("http://registry:8081");
 * builder.setValueOnlyDeserializer(ConfluentJsonFormat.of(JsonFormat.of(Order.class), registry));
 * ConfluentJsonFormat.of(JsonFormat.of(Total.class), registry).forSubject("totals-value", totalSchemaJson, true);
 * }</pre>
 *
 * <p>Bytes not in the wire format, an id the registry does not have, or JSON that does not fit the type
 * are bad records; a registry that does not answer is not the record's fault
 * ({@link KafkaRecordDeserializer.UnavailableException}).
 *
 * @param <T> the element type
 */
@PublicEvolving
public final class ConfluentJsonFormat<T> extends TwoWayFormat<T> {

    private static final long serialVersionUID = 1L;

    private final JsonFormat<T> json;
    private final ConfluentWire wire;
    private final @Nullable String writerSchema;

    private ConfluentJsonFormat(JsonFormat<T> json, ConfluentWire wire, @Nullable String writerSchema) {
        this.json = json;
        this.wire = wire;
        this.writerSchema = writerSchema;
    }

    /** Elements of {@code json}'s type (and its mapper), with schema ids of {@code registry}. */
    public static <T> ConfluentJsonFormat<T> of(JsonFormat<T> json, SchemaRegistry registry) {
        return new ConfluentJsonFormat<>(
                Objects.requireNonNull(json, "json"), new ConfluentWire(registry, "JSON", null, true), null);
    }

    /**
     * Writes with the JSON Schema {@code jsonSchema} under {@code subject} ({@code orders-value}),
     * registering it there unless {@code autoRegister} is false, when it must be registered already.
     */
    public ConfluentJsonFormat<T> forSubject(String subject, String jsonSchema, boolean autoRegister) {
        return new ConfluentJsonFormat<>(
                json, wire.forSubject(subject, autoRegister), Objects.requireNonNull(jsonSchema, "jsonSchema"));
    }

    /** The registry it reads schema ids from. */
    public SchemaRegistry registry() {
        return wire.registry;
    }

    @Override
    void prepare() {
        json.prepare();
    }

    @Override
    public @Nullable T deserialize(byte @Nullable [] message) throws IOException {
        if (message == null) {
            return null; // a tombstone: nothing to read
        }
        int id = ConfluentWire.id(message, "JSON");
        wire.writerSchema(id);
        return json.read(message, ConfluentWire.HEADER);
    }

    @Override
    public byte[] serialize(T element) {
        if (writerSchema == null) {
            throw new IllegalStateException("A ConfluentJsonFormat writes with a JSON Schema under a subject: create"
                    + " it with forSubject(\"orders-value\", jsonSchema, true)");
        }
        return wire.frame(writerSchema, "the JSON Schema of " + json.type().getName(), json.serialize(element));
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return json.getProducedType();
    }
}
