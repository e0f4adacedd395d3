package io.streamsplit.boot.autoconfigure.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.job.JobLineage;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.connector.kafka.format.AvroFormat;
import io.streamsplit.connector.kafka.format.ConfluentAvroFormat;
import io.streamsplit.connector.kafka.format.ConfluentJsonFormat;
import io.streamsplit.connector.kafka.format.JsonFormat;
import io.streamsplit.connector.kafka.format.SchemaRegistry;
import io.streamsplit.connector.kafka.lineage.KafkaLineage;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.pipeline.StreamSplitPipeline;
import io.streamsplit.registry.test.TestSchemaRegistry;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * {@code format: avro-confluent} end to end with a real schema registry (Apicurio's Confluent-compatible
 * API, its own JVM), the embedded broker and the MiniCluster: records written by older producers with
 * another schema version are read with the application's; the sink registers its schema under
 * {@code <topic>-value} and writes the wire format; records the registry cannot explain are
 * dead-lettered; and a registry that does not answer, or refuses the sink's schema, fails startup
 * naming the property.
 */
class SchemaRegistryFormatIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    /** What an older producer wrote: Payment with a field the application's Payment does not have. */
    private static final Schema OLDER = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.streamsplit.boot.autoconfigure.kafka"
                    + ".format\",\"fields\":[{\"name\":\"payer\",\"type\":\"string\"},{\"name\":\"cents\",\"type\":"
                    + "\"long\"},{\"name\":\"channel\",\"type\":\"string\",\"default\":\"web\"}]}");
    /** Payment with a new field that has no default: a BACKWARD rule refuses it after Payment. */
    private static final Schema NO_DEFAULT = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.streamsplit.boot.autoconfigure.kafka"
                    + ".format\",\"fields\":[{\"name\":\"payer\",\"type\":\"string\"},{\"name\":\"cents\",\"type\":"
                    + "\"long\"},{\"name\":\"currency\",\"type\":\"string\"}]}");

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class RegistryApplication {

        @Bean
        StreamSplitPipeline doubled() {
            return pipeline -> pipeline.sink(
                    "doubled",
                    pipeline.<Payment>source("payments")
                            .map(p -> new Payment(p.getPayer().toUpperCase(), p.getCents() * 2)));
        }
    }

    /** A refund, JSON in the Confluent wire format. */
    public record Refund(String id, long cents) {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class JsonSchemaApplication {

        @Bean
        StreamSplitPipeline doubledRefunds() {
            return pipeline -> pipeline.sink(
                    "refunds-out", pipeline.<Refund>source("refunds").map(r -> new Refund(r.id(), r.cents() * 2)));
        }
    }

    @Test
    void jsonSchemaRecordsAreReadIntoTheTypeAndWrittenWithTheSinksSchema() throws Exception {
        String url = TestSchemaRegistry.shared().url();
        SchemaRegistry registry = SchemaRegistry.at(url);
        String servers = KAFKA.bootstrapServers();
        for (String topic : List.of("cf-refunds", "cf-refunds.DLT", "cf-refunds-out")) {
            KAFKA.broker().createTopic(topic, 1);
        }
        String schema = new String(
                getClass().getResourceAsStream("/registry/refund.schema.json").readAllBytes(), StandardCharsets.UTF_8);
        byte[] unknownId = ByteBuffer.allocate(7)
                .put((byte) 0)
                .putInt(987_656)
                .put("{}".getBytes())
                .array();
        KafkaTopics.write(
                servers,
                List.of(
                        new ProducerRecord<>(
                                "cf-refunds",
                                ConfluentJsonFormat.of(JsonFormat.of(Refund.class), registry)
                                        .forSubject("cf-refunds-value", schema, true)
                                        .serialize(new Refund("r-1", 100))),
                        new ProducerRecord<>("cf-refunds", unknownId)));

        try (ConfigurableApplicationContext ignored = new SpringApplicationBuilder(JsonSchemaApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=registry-json",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + servers,
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.flink.checkpointing.interval=500ms",
                        "streamsplit.kafka.schema-registry.url=" + url,
                        "streamsplit.kafka.sources.refunds.topics=cf-refunds",
                        "streamsplit.kafka.sources.refunds.format=json-schema-confluent",
                        "streamsplit.kafka.sources.refunds.type=" + Refund.class.getName(),
                        "streamsplit.kafka.sources.refunds.bad-record-policy=dead-letter",
                        "streamsplit.kafka.sources.refunds.dead-letter-topic=cf-refunds.DLT",
                        "streamsplit.kafka.sinks.refunds-out.topic=cf-refunds-out",
                        "streamsplit.kafka.sinks.refunds-out.format=json-schema-confluent",
                        "streamsplit.kafka.sinks.refunds-out.schema=classpath:registry/refund.schema.json")
                .run()) {
            ConfluentJsonFormat<Refund> reader = ConfluentJsonFormat.of(JsonFormat.of(Refund.class), registry);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.readAll(servers, "cf-refunds-out").stream()
                                    .map(r -> {
                                        try {
                                            return reader.deserialize(r.value());
                                        } catch (java.io.IOException e) {
                                            throw new AssertionError(e);
                                        }
                                    }))
                            .containsExactly(new Refund("r-1", 200)));
            int registered =
                    registry.lookup("cf-refunds-out-value", schema, "JSON").orElseThrow();
            assertThat(KafkaTopics.readAll(servers, "cf-refunds-out"))
                    .allSatisfy(r -> assertThat(ByteBuffer.wrap(r.value(), 1, 4).getInt())
                            .as("the id registered under the sink topic's subject")
                            .isEqualTo(registered));
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(KafkaTopics.readAll(servers, "cf-refunds.DLT"))
                            .singleElement()
                            .satisfies(bad -> assertThat(header(bad)).contains("schema id 987656")));
        }
    }

    /** Bob's payment as the older producer writes it. */
    private static GenericRecord olderBob() {
        GenericRecord older = new GenericData.Record(OLDER);
        older.put("payer", "bob");
        older.put("cents", 5L);
        older.put("channel", "app");
        return older;
    }

    /**
     * The application of one test: named after the topic it reads, so that each test's job resumes only its
     * own checkpoints (kept by default), not another test's pipeline over other topics.
     */
    private static SpringApplicationBuilder app(String... properties) {
        String topic = java.util.Arrays.stream(properties)
                .filter(property -> property.startsWith("streamsplit.kafka.sources.payments.topics="))
                .map(property -> property.substring(property.indexOf('=') + 1))
                .findFirst()
                .orElse("formats");
        return new SpringApplicationBuilder(RegistryApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=registry-" + topic,
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.flink.checkpointing.interval=500ms",
                        "streamsplit.flink.configuration.pipeline.generic-types=false",
                        "streamsplit.kafka.sources.payments.format=avro-confluent",
                        "streamsplit.kafka.sources.payments.type=" + Payment.class.getName(),
                        "streamsplit.kafka.sinks.doubled.format=avro-confluent")
                .properties(properties);
    }

    @Test
    void readsEveryVersionWithTheApplicationsSchemaAndWritesTheWireFormat() throws Exception {
        String url = TestSchemaRegistry.shared().url();
        SchemaRegistry registry = SchemaRegistry.at(url);
        String servers = KAFKA.bootstrapServers();
        for (String topic : List.of("cf-payments", "cf-payments.DLT", "cf-doubled")) {
            KAFKA.broker().createTopic(topic, 1);
        }
        GenericRecord older = olderBob();
        byte[] unknownId = ByteBuffer.allocate(8)
                .put((byte) 0)
                .putInt(987_654)
                .put(new byte[] {2, 'x', 4})
                .array();
        KafkaTopics.write(
                servers,
                List.of(
                        new ProducerRecord<>(
                                "cf-payments",
                                ConfluentAvroFormat.specific(Payment.class, registry)
                                        .forSubject("cf-payments-value")
                                        .serialize(new Payment("ann", 100))),
                        new ProducerRecord<>(
                                "cf-payments",
                                ConfluentAvroFormat.generic(OLDER, registry)
                                        .forSubject("cf-payments-value")
                                        .serialize(older)),
                        new ProducerRecord<>("cf-payments", unknownId),
                        new ProducerRecord<>(
                                "cf-payments",
                                AvroFormat.specific(Payment.class).serialize(new Payment("cy", 1)))));

        try (ConfigurableApplicationContext app = app(
                        "streamsplit.kafka.schema-registry.url=" + url,
                        "streamsplit.kafka.sources.payments.topics=cf-payments",
                        "streamsplit.kafka.sources.payments.bad-record-policy=dead-letter",
                        "streamsplit.kafka.sources.payments.dead-letter-topic=cf-payments.DLT",
                        "streamsplit.kafka.sinks.doubled.topic=cf-doubled")
                .run()) {
            ConfluentAvroFormat<Payment> reader = ConfluentAvroFormat.specific(Payment.class, registry);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.readAll(servers, "cf-doubled").stream()
                                    .map(r -> read(reader, r.value())))
                            .containsExactly(new Payment("ANN", 200), new Payment("BOB", 10)));
            int registered = registry.lookup("cf-doubled-value", Payment.SCHEMA$.toString(), "AVRO")
                    .orElseThrow();
            assertThat(KafkaTopics.readAll(servers, "cf-doubled"))
                    .allSatisfy(r -> assertThat(ByteBuffer.wrap(r.value(), 0, 5).get())
                            .as("magic byte")
                            .isZero())
                    .allSatisfy(r -> assertThat(ByteBuffer.wrap(r.value(), 1, 4).getInt())
                            .as("the id registered under the sink topic's subject")
                            .isEqualTo(registered));
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(KafkaTopics.readAll(servers, "cf-payments.DLT"))
                            .hasSize(2));
            List<ConsumerRecord<byte[], byte[]>> deadLetters = KafkaTopics.readAll(servers, "cf-payments.DLT");
            assertThat(header(deadLetters.get(0))).contains("schema id 987654").contains("does not have");
            assertThat(header(deadLetters.get(1))).contains("Not in the Confluent wire format");

            // lineage: the registry source's topic in, with its records' fields; the sink's and the dead letters' out
            JobLineage lineage = app.getBean(StreamSplitJob.class).lineage();
            assertThat(lineage.inputs()).singleElement().satisfies(in -> {
                assertThat(in.namespace()).isEqualTo(KafkaLineage.namespace(servers));
                assertThat(in.name()).isEqualTo("cf-payments");
                assertThat(in.fields()).extracting(JobLineage.Field::name).containsExactlyInAnyOrder("payer", "cents");
            });
            assertThat(lineage.outputs())
                    .extracting(JobLineage.Dataset::name)
                    .containsExactlyInAnyOrder("cf-doubled", "cf-payments.DLT");
        }
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aRegistryOutageRestartsTheJobInsteadOfDeadLetteringGoodRecords(CapturedOutput output) throws Exception {
        try (TestSchemaRegistry own = TestSchemaRegistry.start()) {
            SchemaRegistry registry = SchemaRegistry.at(own.url());
            String servers = KAFKA.bootstrapServers();
            for (String topic : List.of("cf-outage", "cf-outage.DLT", "cf-outage-out")) {
                KAFKA.broker().createTopic(topic, 1);
            }
            GenericRecord older = olderBob();
            // both versions registered now; the job meets the second id only while the registry is down
            byte[] first = ConfluentAvroFormat.specific(Payment.class, registry)
                    .forSubject("cf-outage-value")
                    .serialize(new Payment("ann", 100));
            byte[] second = ConfluentAvroFormat.generic(OLDER, registry)
                    .forSubject("cf-outage-value")
                    .serialize(older);
            KafkaTopics.write(servers, List.of(new ProducerRecord<>("cf-outage", first)));
            ConfluentAvroFormat<Payment> reader = ConfluentAvroFormat.specific(Payment.class, registry);

            try (ConfigurableApplicationContext ignored = app(
                            "streamsplit.kafka.schema-registry.url=" + own.url(),
                            "streamsplit.kafka.sources.payments.topics=cf-outage",
                            "streamsplit.kafka.sources.payments.bad-record-policy=dead-letter",
                            "streamsplit.kafka.sources.payments.dead-letter-topic=cf-outage.DLT",
                            "streamsplit.kafka.sinks.doubled.topic=cf-outage-out")
                    .run()) {
                await().atMost(Duration.ofSeconds(90))
                        .untilAsserted(() -> assertThat(KafkaTopics.readAll(servers, "cf-outage-out").stream()
                                        .map(r -> read(reader, r.value())))
                                .contains(new Payment("ANN", 200)));
                own.kill9();
                KafkaTopics.write(servers, List.of(new ProducerRecord<>("cf-outage", second)));
                // the job fails on the new id (and restarts, and fails again) while the registry is down
                await().atMost(Duration.ofSeconds(60))
                        .until(() ->
                                output.getOut().contains("the schema registry at " + own.url() + " does not answer"));
                own.restart();

                await().atMost(Duration.ofSeconds(90))
                        .untilAsserted(() -> assertThat(KafkaTopics.readAll(servers, "cf-outage-out").stream()
                                        .map(r -> read(reader, r.value()))
                                        .distinct())
                                .containsExactly(new Payment("ANN", 200), new Payment("BOB", 10)));
                assertThat(KafkaTopics.readAll(servers, "cf-outage.DLT"))
                        .as("a registry outage is not the record's fault")
                        .isEmpty();
                assertThat(output.getOut())
                        .as("the job failure in the application's terms")
                        .contains("the schema registry at " + own.url() + " does not answer")
                        .contains("streamsplit.kafka.schema-registry.url");
            }
        }
    }

    @Test
    void aRegistryThatDoesNotAnswerFailsStartupNamingItsUrl() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        KAFKA.broker().createTopic("cf-down", 1);
        KAFKA.broker().createTopic("cf-down-out", 1);
        String url = "http://127.0.0.1:" + closedPort;

        FailureAnalysis analysis = startupFailure(app(
                "streamsplit.kafka.schema-registry.url=" + url,
                "streamsplit.kafka.sources.payments.topics=cf-down",
                "streamsplit.kafka.sinks.doubled.topic=cf-down-out"));

        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.schema-registry.url")
                .contains(url)
                .contains("does not answer");
        assertThat(analysis.getAction()).contains("Start the registry");
    }

    @Test
    void aSinkSchemaTheSubjectsRuleRefusesFailsStartupNamingTheSink() throws Exception {
        String url = TestSchemaRegistry.shared().url();
        SchemaRegistry registry = SchemaRegistry.at(url);
        KAFKA.broker().createTopic("cf-rule", 1);
        KAFKA.broker().createTopic("cf-rule-out", 1);
        registry.register("cf-rule-out-value", NO_DEFAULT.toString(), "AVRO");
        setCompatibility(url, "cf-rule-out-value", "FORWARD");

        FailureAnalysis analysis = startupFailure(app(
                "streamsplit.kafka.schema-registry.url=" + url,
                "streamsplit.kafka.sources.payments.topics=cf-rule",
                "streamsplit.kafka.sinks.doubled.topic=cf-rule-out"));

        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sinks.doubled.format")
                .contains("subject cf-rule-out-value");
        assertThat(analysis.getAction()).contains("compatibility rule");
    }

    @Test
    void aRegistryBehindTlsIsTrustedThroughAnSslBundle() throws Exception {
        try (TestSchemaRegistry tls = TestSchemaRegistry.startWithTls()) {
            String pem = java.nio.file.Files.readString(tls.certificate());
            SchemaRegistry registry = SchemaRegistry.at(tls.url()).withTrustedCertificates(pem);
            String servers = KAFKA.bootstrapServers();
            KAFKA.broker().createTopic("cf-tls", 1);
            KAFKA.broker().createTopic("cf-tls-out", 1);
            KafkaTopics.write(
                    servers,
                    List.of(new ProducerRecord<>(
                            "cf-tls",
                            ConfluentAvroFormat.specific(Payment.class, registry)
                                    .forSubject("cf-tls-value")
                                    .serialize(new Payment("dee", 21)))));

            FailureAnalysis untrusted = startupFailure(app(
                    "streamsplit.kafka.schema-registry.url=" + tls.url(),
                    "streamsplit.kafka.sources.payments.topics=cf-tls",
                    "streamsplit.kafka.sinks.doubled.topic=cf-tls-out"));
            assertThat(untrusted.getDescription())
                    .as("without the bundle the JDK's CAs do not trust the registry's own certificate")
                    .contains("streamsplit.kafka.schema-registry.url", "does not answer");

            try (ConfigurableApplicationContext ignored = app(
                            "streamsplit.kafka.schema-registry.url=" + tls.url(),
                            "streamsplit.kafka.schema-registry.ssl-bundle=registry",
                            "spring.ssl.bundle.pem.registry.truststore.certificate=file:" + tls.certificate(),
                            "streamsplit.kafka.sources.payments.topics=cf-tls",
                            "streamsplit.kafka.sinks.doubled.topic=cf-tls-out")
                    .run()) {
                ConfluentAvroFormat<Payment> reader = ConfluentAvroFormat.specific(Payment.class, registry);
                await().atMost(Duration.ofSeconds(90))
                        .untilAsserted(() -> assertThat(KafkaTopics.readAll(servers, "cf-tls-out").stream()
                                        .map(r -> read(reader, r.value())))
                                .containsExactly(new Payment("DEE", 42)));
            }
        }
    }

    private static FailureAnalysis startupFailure(SpringApplicationBuilder app) {
        Throwable[] failure = new Throwable[1];
        assertThatThrownBy(() -> {
                    try (ConfigurableApplicationContext ignored = app.run()) {
                        // started: the assertion below fails
                    }
                })
                .satisfies(e -> failure[0] = e);
        FailureAnalysis analysis = FailureReports.analyze(failure[0]);
        assertThat(analysis).as("a failure analyzer explains " + failure[0]).isNotNull();
        return analysis;
    }

    private static void setCompatibility(String url, String subject, String level) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url + "/config/" + subject))
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"" + level + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    private static Payment read(ConfluentAvroFormat<Payment> format, byte[] value) {
        try {
            return format.deserialize(value);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> record) {
        return new String(
                record.headers()
                        .lastHeader(DeadLetterRecord.HEADER_EXCEPTION_MESSAGE)
                        .value(),
                StandardCharsets.UTF_8);
    }
}
