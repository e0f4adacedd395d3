package io.streamsplit.boot.autoconfigure.kafka.format;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.ValueFormat;
import io.streamsplit.connector.kafka.format.AvroFormat;
import io.streamsplit.connector.kafka.format.ConfluentAvroFormat;
import io.streamsplit.connector.kafka.format.SchemaRegistry;
import java.io.IOException;
import java.io.InputStream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.Resource;

/**
 * {@link AvroFormat}s of {@code format: avro}: a {@code SpecificRecord} type carries its schema, a
 * {@code GenericRecord} needs {@code schema:}. Only loaded when a source or sink uses Avro.
 */
final class AvroSchemas {

    private AvroSchemas() {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    static AvroFormat<?> reader(String p, ValueFormat format, @Nullable Class<?> type, @Nullable Resource schema) {
        if (type != null && SpecificRecord.class.isAssignableFrom(type)) {
            noSchema(p, type, schema);
            return AvroFormat.specific((Class) type);
        }
        if (type != null && !GenericRecord.class.isAssignableFrom(type)) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "type",
                    type.getName(),
                    type.getName() + " is not an Avro SpecificRecord, so format " + format.yaml()
                            + " cannot read into it",
                    "Use a class generated from the schema (avro-maven-plugin), or remove " + p + "type and set " + p
                            + "schema to read GenericRecords, or use format json for " + type.getSimpleName() + ".");
        }
        if (schema == null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    null,
                    "format " + format.yaml() + " needs a SpecificRecord type or a schema, and neither is set",
                    "Set " + p + "type to a generated SpecificRecord class, or " + p
                            + "schema to an .avsc resource (classpath:order.avsc) for GenericRecords.");
        }
        return AvroFormat.generic(parse(p, schema));
    }

    /** The writer for elements of {@code elementClass}; null when it is not known yet and nothing says the schema. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static @Nullable AvroFormat<?> writer(
            String p, ValueFormat format, @Nullable Class<?> elementClass, @Nullable Resource schema) {
        if (elementClass != null && SpecificRecord.class.isAssignableFrom(elementClass)) {
            noSchema(p, elementClass, schema);
            return AvroFormat.specific((Class) elementClass);
        }
        if (elementClass != null && !GenericRecord.class.isAssignableFrom(elementClass)) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "format",
                    format.yaml(),
                    "format " + format.yaml()
                            + " writes SpecificRecord or GenericRecord elements, but the stream sent to this sink"
                            + " has " + elementClass.getName(),
                    "Map the stream to a generated Avro class first, or use format json for "
                            + elementClass.getSimpleName() + ".");
        }
        if (schema != null) {
            return AvroFormat.generic(parse(p, schema));
        }
        if (elementClass != null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    null,
                    "the stream sent to this sink has GenericRecords, and format " + format.yaml()
                            + " needs their schema",
                    "Set " + p + "schema to the .avsc resource (classpath:order.avsc).");
        }
        return null;
    }

    /** The reader of {@code format: avro-confluent}: the types of format avro, the ids of {@code confluent}'s registry. */
    static ConfluentAvroFormat<?> confluentReader(
            String p, @Nullable Class<?> type, @Nullable Resource schema, ConfluentSchemas confluent) {
        return confluent(type, reader(p, ValueFormat.AVRO_CONFLUENT, type, schema), confluent.registry(p));
    }

    /** A generated class's own format, else GenericRecords of {@code avro}'s schema, with {@code registry}'s ids. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ConfluentAvroFormat<?> confluent(
            @Nullable Class<?> type, AvroFormat<?> avro, SchemaRegistry registry) {
        return type != null && SpecificRecord.class.isAssignableFrom(type)
                ? ConfluentAvroFormat.specific((Class) type, registry)
                : ConfluentAvroFormat.generic(avro.schema(), registry);
    }

    /** The writer of {@code format: avro-confluent}, under the subject {@code <topic>-value}; null as {@link #writer}. */
    static @Nullable ConfluentAvroFormat<?> confluentWriter(
            String p,
            @Nullable Class<?> elementClass,
            @Nullable Resource schema,
            @Nullable String topic,
            ConfluentSchemas confluent) {
        AvroFormat<?> avro = writer(p, ValueFormat.AVRO_CONFLUENT, elementClass, schema);
        SchemaRegistry registry = confluent.registry(p);
        if (avro == null || topic == null) {
            return null;
        }
        ConfluentAvroFormat<?> format = confluent(elementClass, avro, registry);
        String subject = topic + "-value";
        if (confluent.checks()) {
            confluent.checkSubject(
                    p,
                    "avro-confluent",
                    subject,
                    avro.schema().toString(),
                    "AVRO",
                    avro.schema().getFullName());
        }
        return format.forSubject(subject, confluent.autoRegister());
    }

    private static void noSchema(String p, Class<?> type, @Nullable Resource schema) {
        if (schema != null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    schema.getDescription(),
                    type.getName() + " is a SpecificRecord and carries its own schema; a second one would not be used",
                    "Remove " + p + "schema (it is for GenericRecords).");
        }
    }

    static Schema parse(String p, Resource schema) {
        if (!schema.exists()) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    schema.getDescription(),
                    "the schema resource does not exist",
                    "Check the location: classpath:order.avsc is src/main/resources/order.avsc, file:/etc/app/order.avsc"
                            + " a file.");
        }
        try (InputStream in = schema.getInputStream()) {
            return new Schema.Parser().parse(in);
        } catch (IOException | SchemaParseException e) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    schema.getDescription(),
                    "the schema does not parse as Avro: " + e.getMessage(),
                    "Fix the .avsc file (a JSON Avro schema, e.g. {\"type\":\"record\",\"name\":\"Order\",\"fields\":[...]}).",
                    e);
        }
    }
}
