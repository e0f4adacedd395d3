package io.streamsplit.boot.autoconfigure.kafka.format;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.remote.ClusterClasses;
import io.streamsplit.boot.kafka.ValueFormat;
import io.streamsplit.connector.kafka.format.BytesFormat;
import io.streamsplit.connector.kafka.format.TextFormat;
import io.streamsplit.connector.kafka.sink.ElementFieldKey;
import java.nio.charset.Charset;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.io.Resource;
import org.springframework.util.ClassUtils;

/**
 * The schemas behind {@code format:}, {@code key-format:} and a sink's {@code key:}. Each YAML mistake
 * fails startup naming its property: a type the format cannot produce, an Avro type that is not a
 * SpecificRecord, a schema resource that is missing or does not parse, a key field the element does
 * not have, a format whose library is not on the classpath. Jackson and Avro are touched only when a
 * source or sink uses them, so neither is needed otherwise.
 */
public final class KafkaFormats {

    private static final String JACKSON = "tools.jackson.databind.json.JsonMapper";
    private static final String FLINK_AVRO = "org.apache.flink.formats.avro.typeutils.AvroTypeInfo";
    private static final String AVRO_ARTIFACT = "org.apache.flink:flink-avro (the same version as Flink)";
    private static final String PROTOBUF = "com.google.protobuf.Message";
    private static final String PROTOBUF_ARTIFACT =
            "com.google.protobuf:protobuf-java (the version your protoc generated the classes with, or newer)";

    private final ConfigurableListableBeanFactory beanFactory;
    private final ObjectProvider<ClusterClasses> cluster;
    private final RegistrySettings registrySettings;
    private @Nullable JsonSchemas json;
    private @Nullable ConfluentSchemas confluent;

    public KafkaFormats(ConfigurableListableBeanFactory beanFactory, RegistrySettings registry) {
        this.beanFactory = beanFactory;
        this.cluster = beanFactory.getBeanProvider(ClusterClasses.class);
        this.registrySettings = registry;
    }

    /**
     * The value reader of a source with {@code format}; {@code p} is its property prefix
     * ({@code streamsplit.kafka.sources.orders.}).
     */
    public DeserializationSchema<?> reader(
            String p,
            ValueFormat format,
            @Nullable Class<?> type,
            Map<String, String> columns,
            @Nullable Resource schema,
            Charset charset) {
        noSchemaUnlessAvro(p, format, schema);
        DeserializationSchema<?> reader = switch (format) {
            case STRING -> {
                plainType(p, format, type, String.class);
                yield TextFormat.of(charset);
            }
            case BYTES -> {
                plainType(p, format, type, byte[].class);
                yield BytesFormat.INSTANCE;
            }
            case JSON -> columns.isEmpty() ? json(p).format(required(p, format, type)) : JsonColumns.format(p, columns);
            case PROTOBUF -> {
                protobufLibrary(p);
                yield ProtobufSchemas.reader(p, required(p, format, type));
            }
            case AVRO -> {
                requireLibrary(p, "avro", FLINK_AVRO, AVRO_ARTIFACT);
                yield AvroSchemas.reader(p, format, type, schema);
            }
            case AVRO_CONFLUENT -> {
                requireLibrary(p, "avro-confluent", FLINK_AVRO, AVRO_ARTIFACT);
                yield AvroSchemas.confluentReader(p, type, schema, confluent());
            }
            case JSON_SCHEMA_CONFLUENT -> {
                if (schema != null) {
                    throw new InvalidStreamSplitConfigurationException(
                            p + "schema",
                            schema.getDescription(),
                            "format json-schema-confluent reads each record into the type; a source has no use for a"
                                    + " schema (a sink registers its own)",
                            "Remove " + p + "schema.");
                }
                yield confluent().jsonReader(p, json(p).format(required(p, format, type)));
            }
        };
        return shippable(p + "format", format, reader);
    }

    /**
     * A source's {@code columns} are the fields of {@code format: json} values without a {@code type}: set with
     * no format, another format or a type too, they fail naming {@code p + "columns"}. Checked before
     * {@link #reader}, which then reads Rows of them.
     */
    public static void checkColumns(
            String p, @Nullable ValueFormat format, @Nullable Class<?> type, Map<String, String> columns) {
        if (columns.isEmpty() || (format == ValueFormat.JSON && type == null)) {
            return;
        }
        String problem;
        String action;
        if (format == null) {
            problem = "columns are set but format is not; they are the fields of format json values";
            action = "Set " + p + "format to json, or remove " + p + "columns.";
        } else if (format != ValueFormat.JSON) {
            problem = "columns are the fields of JSON values, and format is " + format.yaml();
            action = "Set " + p + "format to json, or remove " + p + "columns.";
        } else {
            problem = "both type " + Objects.requireNonNull(type).getName()
                    + " and columns are set; values are read into one of them";
            action = "Remove " + p + "type to read Rows of the columns, or remove " + p + "columns to read the type.";
        }
        throw new InvalidStreamSplitConfigurationException(p + "columns", String.valueOf(columns), problem, action);
    }

    /** The key reader of {@code key-format} (string or bytes). */
    public DeserializationSchema<?> keyReader(String p, ValueFormat format, Charset charset) {
        return switch (format) {
            case STRING -> TextFormat.of(charset);
            case BYTES -> BytesFormat.INSTANCE;
            case JSON, AVRO, AVRO_CONFLUENT, JSON_SCHEMA_CONFLUENT, PROTOBUF ->
                throw new InvalidStreamSplitConfigurationException(
                        p + "key-format",
                        format.yaml(),
                        "keys are read as string or bytes only",
                        "Use key-format string or bytes, or a KafkaRecordDeserializer bean (it sees the whole"
                                + " record) for keys in " + format.yaml() + ".");
        };
    }

    /**
     * The value writer of a sink with {@code format}, for elements of {@code elementClass}; {@code null}
     * when the stream is not known yet (the startup check of every sink): then only the settings are
     * checked, and the writer returned (null when the format needs the stream's type) must not be used.
     * {@code topic} names the registry subject of format avro-confluent ({@code <topic>-value}).
     */
    public @Nullable SerializationSchema<?> writer(
            String p,
            ValueFormat format,
            @Nullable Class<?> elementClass,
            @Nullable Resource schema,
            Charset charset,
            @Nullable String topic) {
        noSchemaUnlessAvro(p, format, schema);
        SerializationSchema<?> writer = switch (format) {
            case STRING -> {
                streamType(p, format, elementClass, String.class);
                yield TextFormat.of(charset);
            }
            case BYTES -> {
                streamType(p, format, elementClass, byte[].class);
                yield BytesFormat.INSTANCE;
            }
            case JSON -> json(p).format(elementClass == null ? (Class<?>) Object.class : elementClass);
            // the stream's type is known only when the pipeline is built; the library is checked before
            case PROTOBUF -> {
                protobufLibrary(p);
                yield elementClass == null ? null : ProtobufSchemas.writer(p, elementClass);
            }
            case AVRO -> {
                requireLibrary(p, "avro", FLINK_AVRO, AVRO_ARTIFACT);
                yield AvroSchemas.writer(p, format, elementClass, schema);
            }
            case AVRO_CONFLUENT -> {
                requireLibrary(p, "avro-confluent", FLINK_AVRO, AVRO_ARTIFACT);
                yield AvroSchemas.confluentWriter(p, elementClass, schema, topic, confluent());
            }
            case JSON_SCHEMA_CONFLUENT ->
                confluent()
                        .jsonWriter(
                                p,
                                json(p).format(elementClass == null ? (Class<?>) Object.class : elementClass),
                                schema,
                                topic);
        };
        return writer == null ? null : shippable(p + "format", format, writer);
    }

    /** The record key of a sink: field {@code field} of the elements, as UTF-8 text. */
    public <T> SerializationSchema<T> keyField(String p, String field, Class<T> elementClass) {
        try {
            return ElementFieldKey.of(elementClass, field);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "key",
                    field,
                    "the sink's elements are " + elementClass.getName() + ", which has no record component, public"
                            + " field or getter named '" + field + "'",
                    "Set " + p + "key to one of its fields " + ElementFieldKey.fieldsOf(elementClass)
                            + ", or remove it to write records without a key.",
                    e);
        }
    }

    /**
     * Why the schema registry of format avro-confluent does not answer (empty when it does); for the
     * startup check, which calls it when a source or sink uses the format.
     */
    public Optional<String> registryUnreachable() {
        return confluent().unreachable();
    }

    private ConfluentSchemas confluent() {
        if (confluent == null) {
            confluent = new ConfluentSchemas(registrySettings);
        }
        return confluent;
    }

    private static void noSchemaUnlessAvro(String p, ValueFormat format, @Nullable Resource schema) {
        if (schema != null
                && format != ValueFormat.AVRO
                && format != ValueFormat.AVRO_CONFLUENT
                && format != ValueFormat.JSON_SCHEMA_CONFLUENT) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    schema.getDescription(),
                    "a schema is set but format is " + format.yaml() + ", which has none",
                    "Remove " + p + "schema, or use format avro.");
        }
    }

    private static void plainType(String p, ValueFormat format, @Nullable Class<?> type, Class<?> produced) {
        if (type != null && type != produced) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "type",
                    type.getName(),
                    "format " + format.yaml() + " produces " + produced.getSimpleName() + " elements, not "
                            + type.getSimpleName(),
                    "Remove " + p + "type, or use format json or avro to read into " + type.getSimpleName() + ".");
        }
    }

    private static void streamType(String p, ValueFormat format, @Nullable Class<?> elementClass, Class<?> written) {
        if (elementClass != null && elementClass != written) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "format",
                    format.yaml(),
                    "format " + format.yaml() + " writes " + written.getSimpleName() + " elements, but the stream"
                            + " sent to this sink has " + elementClass.getName(),
                    "Use format json (or avro) for " + elementClass.getSimpleName() + " elements, or map the stream"
                            + " to " + written.getSimpleName() + " first.");
        }
    }

    private void protobufLibrary(String p) {
        requireLibrary(p, "protobuf", PROTOBUF, PROTOBUF_ARTIFACT);
    }

    static Class<?> required(String p, ValueFormat format, @Nullable Class<?> type) {
        if (type == null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "type",
                    null,
                    "format " + format.yaml() + " reads each value into a class, but no type is set",
                    "Set " + p + "type to the element class, e.g. "
                            + (format == ValueFormat.PROTOBUF
                                    ? "com.acme.proto.Order (a class protoc generated)."
                                    : format == ValueFormat.JSON
                                            ? "com.acme.Order (a record or a POJO), or declare the fields as " + p
                                                    + "columns (e.g. id: STRING) to read Rows."
                                            : "com.acme.Order (a record or a POJO)."));
        }
        return type;
    }

    private JsonSchemas json(String p) {
        if (json == null) {
            requireLibrary(
                    p, "json", JACKSON, "tools.jackson.core:jackson-databind (Jackson 3; Spring Boot manages it)");
            json = new JsonSchemas(beanFactory, cluster::getIfAvailable);
        }
        return json;
    }

    private void requireLibrary(String p, String format, String className, String artifact) {
        if (!ClassUtils.isPresent(className, beanFactory.getBeanClassLoader())) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "format",
                    format,
                    "format " + format + " needs " + artifact + ", which is not on the classpath",
                    "Add the dependency " + artifact + ".");
        }
    }

    /** Remote mode: the format and what it carries must load on the Flink cluster. */
    private <S> S shippable(String property, ValueFormat format, S schema) {
        ClusterClasses classes = cluster.getIfAvailable();
        ClusterClasses.Missing missing = classes == null ? null : classes.missingFor(schema);
        if (missing != null) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    format.yaml(),
                    "format " + format.yaml() + " travels to the Flink cluster, but " + missing,
                    "Ship the library with streamsplit.flink.remote.jars, or remove it from"
                            + " streamsplit.flink.remote.exclude-jars.");
        }
        return schema;
    }
}
