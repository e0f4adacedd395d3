package io.streamsplit.connector.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.registry.test.TestSchemaRegistry;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our registry client and wire format against Confluent's: Flink's own Confluent-registry Avro format
 * ({@code flink-sql-avro-confluent-registry}, whose registry client is Confluent's
 * {@code CachedSchemaRegistryClient}) writes what {@link ConfluentAvroFormat} reads, and reads what it
 * writes, through the same real registry. Flink's jar relocates Avro, so its records are built and
 * read by reflection in a class loader of its own.
 */
class ConfluentInteropIT {

    private static final Path JAR = Path.of("target/confluent-client/flink-sql-avro-confluent-registry.jar");
    private static final String SHADED_AVRO = "org.apache.flink.avro.shaded.org.apache.avro.";
    private static final String PAYMENT = "{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"}]}";

    private static ClassLoader flinkConfluent;
    private final String url = TestSchemaRegistry.shared().url();

    @BeforeAll
    static void loadFlinksConfluentFormat() throws Exception {
        assertThat(JAR).as("copied by the build (maven-dependency-plugin)").exists();
        flinkConfluent = new ChildFirst(JAR.toUri().toURL(), ConfluentInteropIT.class.getClassLoader());
    }

    @Test
    void readsWhatFlinksConfluentFormatWrites() throws Exception {
        String subject = "interop-" + UUID.randomUUID() + "-value";
        Object schema = shadedSchema(PAYMENT);
        Object record = flinkConfluent
                .loadClass(SHADED_AVRO + "generic.GenericData$Record")
                .getConstructor(shadedSchemaClass())
                .newInstance(schema);
        record.getClass().getMethod("put", String.class, Object.class).invoke(record, "id", "p-1");
        record.getClass().getMethod("put", String.class, Object.class).invoke(record, "amount", 42L);
        @SuppressWarnings("unchecked")
        SerializationSchema<Object> theirs = (SerializationSchema<Object>) flinkConfluent
                .loadClass("org.apache.flink.formats.avro.registry.confluent.ConfluentRegistryAvroSerializationSchema")
                .getMethod("forGeneric", String.class, shadedSchemaClass(), String.class)
                .invoke(null, subject, schema, url);

        byte[] written = theirs.serialize(record);

        SchemaRegistry registry = SchemaRegistry.at(url);
        assertThat(ByteBuffer.wrap(written, 1, 4).getInt())
                .as("Confluent's client registered the schema under the subject")
                .isEqualTo(registry.lookup(subject, PAYMENT, "AVRO").orElseThrow());
        GenericRecord read = ConfluentAvroFormat.generic(new Schema.Parser().parse(PAYMENT), registry)
                .deserialize(written);
        assertThat(read.get("id").toString()).isEqualTo("p-1");
        assertThat(read.get("amount")).isEqualTo(42L);
    }

    @Test
    void flinksConfluentFormatReadsWhatWeWrite() throws Exception {
        Schema payment = new Schema.Parser().parse(PAYMENT);
        GenericRecord record = new GenericData.Record(payment);
        record.put("id", "p-2");
        record.put("amount", 7L);
        byte[] written = ConfluentAvroFormat.generic(payment, SchemaRegistry.at(url))
                .forSubject("interop-" + UUID.randomUUID() + "-value")
                .serialize(record);

        Object schema = shadedSchema(PAYMENT);
        DeserializationSchema<?> theirs = (DeserializationSchema<?>) flinkConfluent
                .loadClass(
                        "org.apache.flink.formats.avro.registry.confluent.ConfluentRegistryAvroDeserializationSchema")
                .getMethod("forGeneric", shadedSchemaClass(), String.class)
                .invoke(null, schema, url);

        assertThat(String.valueOf(theirs.deserialize(written))).isEqualTo("{\"id\": \"p-2\", \"amount\": 7}");
    }

    private static Class<?> shadedSchemaClass() throws ClassNotFoundException {
        return flinkConfluent.loadClass(SHADED_AVRO + "Schema");
    }

    private static Object shadedSchema(String json) throws Exception {
        Class<?> parser = flinkConfluent.loadClass(SHADED_AVRO + "Schema$Parser");
        return parser.getMethod("parse", String.class)
                .invoke(parser.getConstructor().newInstance(), json);
    }

    /** Flink's Avro classes from the jar, not from the flink-avro on the test's classpath. */
    private static final class ChildFirst extends URLClassLoader {

        ChildFirst(URL jar, ClassLoader parent) {
            super(new URL[] {jar}, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("org.apache.flink.formats.avro.") && !name.startsWith("org.apache.flink.avro.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = findClass(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }
    }
}
