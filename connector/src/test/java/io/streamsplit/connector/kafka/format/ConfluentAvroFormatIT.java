package io.streamsplit.connector.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.registry.test.TestSchemaRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/**
 * The Confluent wire format against a real schema registry (Apicurio's Confluent-compatible API in its
 * own JVM): ids registered and looked up, schema evolution between writer and reader, and which failures
 * are the record's (bad records) and which are the registry's (the task fails and reads again).
 */
class ConfluentAvroFormatIT {

    private static final Schema V1 =
            schema("{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"}");
    /** V1 plus a field with a default: BACKWARD compatible, reads V1's records. */
    private static final Schema V2 =
            schema("{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"},"
                    + "{\"name\":\"currency\",\"type\":\"string\",\"default\":\"EUR\"}");
    /** V1 plus a field without a default: cannot read V1's records. */
    private static final Schema V2_NO_DEFAULT = schema("{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\","
            + "\"type\":\"long\"},{\"name\":\"currency\",\"type\":\"string\"}");

    private final SchemaRegistry registry =
            SchemaRegistry.at(TestSchemaRegistry.shared().url());

    private static Schema schema(String fields) {
        return new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"com.acme\",\"fields\":[" + fields
                        + "]}");
    }

    private static String subject() {
        return "payments-" + UUID.randomUUID() + "-value";
    }

    private static GenericRecord payment(Schema schema, String id, long amount) {
        GenericRecord record = new GenericData.Record(schema);
        record.put("id", id);
        record.put("amount", amount);
        if (schema.getField("currency") != null) {
            record.put("currency", "CHF");
        }
        return record;
    }

    @Test
    void writesTheWireFormatWithTheRegisteredIdAndReadsItBack() throws Exception {
        String subject = subject();
        ConfluentAvroFormat<AvroOrder> format =
                ConfluentAvroFormat.specific(AvroOrder.class, registry).forSubject(subject);

        byte[] bytes = format.serialize(new AvroOrder("o-1", 42));

        assertThat(bytes[0]).as("magic byte").isZero();
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        assertThat(registry.lookup(subject, AvroOrder.SCHEMA$.toString(), "AVRO"))
                .as("registered under the subject")
                .contains(id);
        assertThat(registry.schema(id))
                .hasValueSatisfying(
                        s -> assertThat(new Schema.Parser().parse(s)).isEqualTo(AvroOrder.SCHEMA$));
        AvroOrder read = ConfluentAvroFormat.specific(AvroOrder.class, registry).deserialize(bytes);
        assertThat(read).isNotNull();
        assertThat(read.getId()).isEqualTo("o-1");
        assertThat(read.getAmount()).isEqualTo(42);
    }

    @Test
    void aFormatShippedToATaskManagerRegistersItsSchemaThere() throws Exception {
        String subject = subject();
        // Flink ships formats with Java serialization: nothing registered on this side travels along
        ConfluentAvroFormat<AvroOrder> shipped = InstantiationUtil.clone(
                ConfluentAvroFormat.specific(AvroOrder.class, registry).forSubject(subject));

        byte[] bytes = shipped.serialize(new AvroOrder("o-2", 7));

        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt())
                .isEqualTo(registry.lookup(subject, AvroOrder.SCHEMA$.toString(), "AVRO")
                        .orElseThrow());
        assertThat(InstantiationUtil.clone(ConfluentAvroFormat.specific(AvroOrder.class, registry))
                        .deserialize(bytes)
                        .getId())
                .isEqualTo("o-2");
    }

    @Test
    void readsWithItsOwnSchemaWhatWasWrittenWithAnother() throws Exception {
        String subject = subject();
        byte[] writtenWithV1 =
                ConfluentAvroFormat.generic(V1, registry).forSubject(subject).serialize(payment(V1, "p-1", 10));
        byte[] writtenWithV2 =
                ConfluentAvroFormat.generic(V2, registry).forSubject(subject).serialize(payment(V2, "p-2", 20));
        assertThat(ByteBuffer.wrap(writtenWithV2, 1, 4).getInt())
                .as("a new version, a new id")
                .isNotEqualTo(ByteBuffer.wrap(writtenWithV1, 1, 4).getInt());

        ConfluentAvroFormat<GenericRecord> v2Reader = ConfluentAvroFormat.generic(V2, registry);
        GenericRecord old = v2Reader.deserialize(writtenWithV1);
        assertThat(old.get("id").toString()).isEqualTo("p-1");
        assertThat(old.get("currency").toString()).as("the reader's default").isEqualTo("EUR");
        assertThat(v2Reader.deserialize(writtenWithV2).get("currency").toString())
                .isEqualTo("CHF");

        ConfluentAvroFormat<GenericRecord> v1Reader = ConfluentAvroFormat.generic(V1, registry);
        GenericRecord newer = v1Reader.deserialize(writtenWithV2);
        assertThat(newer.getSchema().getField("currency"))
                .as("a field the reader lacks is skipped")
                .isNull();
        assertThat((Long) newer.get("amount")).isEqualTo(20L);
    }

    @Test
    void aWriterSchemaTheReaderCannotResolveIsABadRecord() throws Exception {
        byte[] writtenWithV1 =
                ConfluentAvroFormat.generic(V1, registry).forSubject(subject()).serialize(payment(V1, "p-1", 10));

        assertThatThrownBy(() ->
                        ConfluentAvroFormat.generic(V2_NO_DEFAULT, registry).deserialize(writtenWithV1))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(KafkaRecordDeserializer.UnavailableException.class)
                .hasMessageContaining("schema id")
                .hasMessageContaining("currency");
    }

    @Test
    void anIdTheRegistryDoesNotHaveAndBytesNotInTheWireFormatAreBadRecords() {
        ConfluentAvroFormat<GenericRecord> reader = ConfluentAvroFormat.generic(V1, registry);
        byte[] unknownId = ByteBuffer.allocate(8)
                .put((byte) 0)
                .putInt(987_654)
                .put(new byte[] {2, 'x', 4})
                .array();

        assertThatThrownBy(() -> reader.deserialize(unknownId))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(KafkaRecordDeserializer.UnavailableException.class)
                .hasMessageContaining("schema id 987654")
                .hasMessageContaining("does not have");
        assertThatThrownBy(() -> reader.deserialize("{\"id\":\"p-1\"}".getBytes()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Not in the Confluent wire format")
                .hasMessageContaining("0x7b");
    }

    @Test
    void aRegistryThatDoesNotAnswerIsNotTheRecordsFault() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        SchemaRegistry gone = SchemaRegistry.at("http://127.0.0.1:" + closedPort);
        byte[] bytes =
                ConfluentAvroFormat.generic(V1, registry).forSubject(subject()).serialize(payment(V1, "p-1", 10));

        assertThatThrownBy(() -> ConfluentAvroFormat.generic(V1, gone).deserialize(bytes))
                .isInstanceOf(KafkaRecordDeserializer.UnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + closedPort)
                .hasMessageContaining("does not answer");
        assertThatThrownBy(gone::check).isInstanceOf(KafkaRecordDeserializer.UnavailableException.class);
        // a second URL that answers is tried next
        GenericRecord read = ConfluentAvroFormat.generic(
                        V1,
                        SchemaRegistry.at("http://127.0.0.1:" + closedPort + ","
                                + registry.urls().get(0)))
                .deserialize(bytes);
        assertThat(read.get("id").toString()).isEqualTo("p-1");
    }

    @Test
    void theSubjectsCompatibilityRuleIsEnforcedAndReportedBeforeWriting() throws Exception {
        String subject = subject();
        ConfluentAvroFormat.generic(V1, registry).forSubject(subject).serialize(payment(V1, "p-1", 10));
        setCompatibility(subject, "BACKWARD");

        assertThat(registry.incompatibility(subject, V2_NO_DEFAULT.toString(), "AVRO"))
                .as("Apicurio's Confluent API gives no reasons (no verbose=true)")
                .hasValueSatisfying(reason -> assertThat(reason).contains("compatibility"));
        assertThat(registry.incompatibility(subject, V2.toString(), "AVRO")).isEmpty();
        assertThat(registry.incompatibility(subject(), V2_NO_DEFAULT.toString(), "AVRO"))
                .as("a subject without versions accepts anything")
                .isEmpty();
        assertThatThrownBy(() -> ConfluentAvroFormat.generic(V2_NO_DEFAULT, registry)
                        .forSubject(subject)
                        .serialize(payment(V2_NO_DEFAULT, "p-2", 20)))
                .hasMessageContaining("Cannot register com.acme.Payment under subject " + subject)
                .hasMessageContaining("409");
    }

    @Test
    void withoutAutoRegistrationTheSchemaMustBeRegisteredAlready() throws Exception {
        String subject = subject();
        assertThatThrownBy(() -> ConfluentAvroFormat.generic(V1, registry)
                        .forSubject(subject, false)
                        .serialize(payment(V1, "p-1", 10)))
                .hasMessageContaining("is not registered under subject " + subject);

        int id = registry.register(subject, V1.toString(), "AVRO");
        byte[] bytes = ConfluentAvroFormat.generic(V1, registry)
                .forSubject(subject, false)
                .serialize(payment(V1, "p-1", 10));
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
    }

    /** An element of the JSON Schema tests. */
    public record Refund(String id, long cents) {}

    private static final String REFUND_SCHEMA = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
            + "\"title\":\"Refund\",\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},"
            + "\"cents\":{\"type\":\"integer\"}},\"required\":[\"id\",\"cents\"]}";

    @Test
    void jsonSchemaWritesTheWireFormatWithTheRegisteredIdAndReadsItBack() throws Exception {
        String subject = subject();
        ConfluentJsonFormat<Refund> format =
                ConfluentJsonFormat.of(JsonFormat.of(Refund.class), registry).forSubject(subject, REFUND_SCHEMA, true);

        byte[] bytes = InstantiationUtil.clone(format).serialize(new Refund("r-1", 250));

        assertThat(bytes[0]).as("magic byte").isZero();
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt())
                .as("registered as a JSON schema under the subject")
                .isEqualTo(registry.lookup(subject, REFUND_SCHEMA, "JSON").orElseThrow());
        assertThat(new String(bytes, 5, bytes.length - 5, java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":\"r-1\",\"cents\":250}");
        assertThat(ConfluentJsonFormat.of(JsonFormat.of(Refund.class), registry).deserialize(bytes))
                .isEqualTo(new Refund("r-1", 250));
    }

    @Test
    void jsonSchemaRecordsTheRegistryCannotExplainOrThatDoNotFitAreBadRecords() throws Exception {
        ConfluentJsonFormat<Refund> reader = ConfluentJsonFormat.of(JsonFormat.of(Refund.class), registry);
        byte[] unknownId = ByteBuffer.allocate(7)
                .put((byte) 0)
                .putInt(987_655)
                .put("{}".getBytes())
                .array();
        assertThatThrownBy(() -> reader.deserialize(unknownId))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(KafkaRecordDeserializer.UnavailableException.class)
                .hasMessageContaining("schema id 987655");
        assertThatThrownBy(() -> reader.deserialize("{\"id\":\"r-2\"}".getBytes()))
                .hasMessageContaining("Not in the Confluent wire format");
        byte[] good = ConfluentJsonFormat.of(JsonFormat.of(Refund.class), registry)
                .forSubject(subject(), REFUND_SCHEMA, true)
                .serialize(new Refund("r-3", 1));
        byte[] notARefund = ByteBuffer.allocate(5 + 13)
                .put(java.util.Arrays.copyOf(good, 5))
                .put("{\"cents\":\"x\"}".getBytes())
                .array();
        assertThatThrownBy(() -> reader.deserialize(notARefund))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("JSON does not fit");
    }

    private void setCompatibility(String subject, String level) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(registry.urls().get(0) + "/config/" + subject))
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"" + level + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }
}
