package io.streamsplit.connector.kafka.format;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON values of one element type (a record, a POJO, {@code java.time} fields included) through
 * Jackson 3. The mapper travels with the job as its Java-serialized configuration, so its modules and
 * naming settings apply on the TaskManagers too.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.JsonFormat;
 *
 * builder.setValueOnlyDeserializer(JsonFormat.of(Order.class));   // a source
 * KafkaRecordSerializationSchema.builder().setValueSerializationSchema(JsonFormat.of(Total.class)); // a sink
 * }</pre>
 *
 * <p>A value that is not JSON, or does not fit the type, fails with the JSON path that did not fit
 * ({@code $.lines[2].amount}); on a source that makes it a bad record for the bad-record policy. What
 * would change the data on the way in fails too, whatever the mapper's settings: a number with a
 * fraction for an integer field ({@code 5.7} is not read as 5), {@code null} or a missing value for a
 * primitive field, and the value {@code null} itself. A record without a value (a tombstone) is
 * dropped.
 *
 * @param <T> the element type
 */
@PublicEvolving
public final class JsonFormat<T> extends TwoWayFormat<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final byte @Nullable [] mapper;
    private transient @Nullable ObjectReader reader;
    private transient @Nullable ObjectWriter writer;

    private JsonFormat(Class<T> type, byte @Nullable [] mapper) {
        this.type = Objects.requireNonNull(type, "type");
        this.mapper = mapper;
    }

    /** JSON of {@code type} with Jackson's defaults (plus the modules Jackson finds on the classpath). */
    public static <T> JsonFormat<T> of(Class<T> type) {
        return new JsonFormat<>(type, null);
    }

    /**
     * JSON of {@code type} read and written by {@code mapper}'s configuration.
     *
     * @throws IllegalArgumentException if the mapper cannot be Java-serialized to travel with the job
     */
    public static <T> JsonFormat<T> of(Class<T> type, ObjectMapper mapper) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(mapper);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "The JSON mapper cannot travel with the Flink job: it does not" + " serialize (" + e
                            + "). Use JsonFormat.of(type) for a mapper with Jackson's defaults.",
                    e);
        }
        return new JsonFormat<>(type, bytes.toByteArray());
    }

    /** The element type. */
    public Class<T> type() {
        return type;
    }

    @Override
    void prepare() {
        if (reader != null) {
            return;
        }
        ObjectMapper jackson =
                mapper == null ? JsonMapper.builder().findAndAddModules().build() : restore(mapper);
        // a pipeline must not change data silently: 5.7 into an int field is a bad record, not 5
        reader = jackson.readerFor(type).without(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        writer = jackson.writerFor(type);
    }

    private static ObjectMapper restore(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(java.io.ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                return Class.forName(
                        desc.getName(), false, Thread.currentThread().getContextClassLoader());
            }
        }) {
            return (ObjectMapper) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("The JSON mapper that travelled with the job cannot be restored: " + e, e);
        }
    }

    @Override
    public @Nullable T deserialize(byte @Nullable [] message) throws IOException {
        if (message == null) {
            return null; // a tombstone: nothing to read
        }
        return read(message, 0);
    }

    /** The element of the JSON from {@code offset} to the end of {@code message}. */
    T read(byte[] message, int offset) throws IOException {
        prepare();
        try {
            T value = Objects.requireNonNull(reader).readValue(message, offset, message.length - offset);
            if (value == null) {
                throw new IOException("JSON does not fit " + type.getName() + " at $: the value is JSON null");
            }
            return value;
        } catch (JacksonException e) {
            throw new IOException(
                    "JSON does not fit " + type.getName() + " at " + jsonPath(e) + ": " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public byte[] serialize(T element) {
        prepare();
        try {
            return Objects.requireNonNull(writer).writeValueAsBytes(element);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "Element of " + type.getName() + " cannot be written as JSON at " + jsonPath(e) + ": "
                            + e.getOriginalMessage(),
                    e);
        }
    }

    /** {@code $.lines[2].amount}, or {@code $} for the whole value. */
    static String jsonPath(JacksonException e) {
        StringBuilder path = new StringBuilder("$");
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append('.').append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return TypeInformation.of(type);
    }
}
