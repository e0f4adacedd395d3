package io.streamsplit.boot.autoconfigure.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.kafka.format.proto.Transfer;
import io.streamsplit.boot.job.JobLineage;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.connector.kafka.format.AvroFormat;
import io.streamsplit.connector.kafka.format.Keyed;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every built-in format end to end, on the embedded broker and the MiniCluster, with no deserializer
 * or serializer bean: JSON through the application's JsonMapper (snake_case from
 * {@code spring.jackson.*}), Avro SpecificRecord and GenericRecord (raw and single-object encoded
 * input), Protobuf generated messages (keyed by a field, a truncated message dead-lettered), text in a
 * charset with its key, and bytes. The job runs with
 * {@code pipeline.generic-types: false}, so any element type that fell back to Kryo would fail it.
 */
class FormatsIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    public record Line(String sku, int quantity) {}

    public record Order(String customer, BigDecimal amount, Instant placedAt, List<Line> lines) {}

    public record Total(String customer, long cents, int items, Instant placedAt) {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class FormatsApplication {

        @Bean
        StreamSplitPipeline jsonPipeline() {
            return pipeline -> pipeline.sink(
                    "totals",
                    pipeline.<Order>source("orders")
                            .map(order -> new Total(
                                    order.customer(),
                                    order.amount().movePointRight(2).longValueExact(),
                                    order.lines().stream()
                                            .mapToInt(Line::quantity)
                                            .sum(),
                                    order.placedAt())));
        }

        @Bean
        StreamSplitPipeline avroPipelines() {
            return pipeline -> {
                pipeline.sink(
                        "payments-out",
                        pipeline.<Payment>source("payments")
                                .map(p -> new Payment(p.getPayer().toUpperCase(), p.getCents() * 2)));
                pipeline.sink("generic-out", pipeline.<GenericRecord>source("generic"));
            };
        }

        @Bean
        StreamSplitPipeline protobufPipeline() {
            // no returns(...): the source's message class is registered with Flink's type extraction
            return pipeline -> pipeline.sink(
                    "transfers-out",
                    pipeline.<Transfer>source("transfers")
                            .map(t -> t.toBuilder().setCents(t.getCents() * 2).build()));
        }

        @Bean
        StreamSplitPipeline textAndBytesPipelines() {
            return pipeline -> {
                pipeline.sink(
                        "words-out",
                        pipeline.<Keyed<String, String>>source("words")
                                .map(keyed -> keyed.key() + "=" + keyed.value().toUpperCase()));
                pipeline.sink("raw-out", pipeline.<byte[]>source("raw"));
            };
        }
    }

    @Test
    void eachFormatReadsAndWritesWithoutABeanAndCountsItsBadRecords() throws Exception {
        for (String topic : List.of(
                "orders",
                "orders.DLT",
                "totals",
                "payments",
                "payments-out",
                "generic-in",
                "generic-out",
                "words",
                "words-out",
                "raw",
                "raw-out",
                "transfers",
                "transfers.DLT",
                "transfers-out")) {
            KAFKA.broker().createTopic(topic, 1);
        }
        String servers = KAFKA.bootstrapServers();
        String orders = "streamsplit.kafka.sources.orders.";
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(FormatsApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=formats",
                        "spring.jackson.property-naming-strategy=SNAKE_CASE",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + servers,
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.flink.checkpointing.interval=500ms",
                        "streamsplit.flink.configuration.pipeline.generic-types=false",
                        orders + "topics=orders",
                        orders + "format=json",
                        orders + "type=" + Order.class.getName(),
                        orders + "bad-record-policy=dead-letter",
                        orders + "dead-letter-topic=orders.DLT",
                        "streamsplit.kafka.sinks.totals.topic=totals",
                        "streamsplit.kafka.sinks.totals.format=json",
                        "streamsplit.kafka.sinks.totals.key=customer",
                        "streamsplit.kafka.sources.payments.topics=payments",
                        "streamsplit.kafka.sources.payments.format=avro",
                        "streamsplit.kafka.sources.payments.type=" + Payment.class.getName(),
                        "streamsplit.kafka.sources.payments.bad-record-policy=skip",
                        "streamsplit.kafka.sinks.payments-out.topic=payments-out",
                        "streamsplit.kafka.sinks.payments-out.format=avro",
                        "streamsplit.kafka.sources.generic.topics=generic-in",
                        "streamsplit.kafka.sources.generic.format=avro",
                        "streamsplit.kafka.sources.generic.schema=classpath:avro/payment.avsc",
                        "streamsplit.kafka.sinks.generic-out.topic=generic-out",
                        "streamsplit.kafka.sinks.generic-out.format=avro",
                        "streamsplit.kafka.sinks.generic-out.schema=classpath:avro/payment.avsc",
                        "streamsplit.kafka.sources.words.topics=words",
                        "streamsplit.kafka.sources.words.format=string",
                        "streamsplit.kafka.sources.words.key-format=string",
                        "streamsplit.kafka.sources.words.charset=ISO-8859-1",
                        "streamsplit.kafka.sinks.words-out.topic=words-out",
                        "streamsplit.kafka.sinks.words-out.format=string",
                        "streamsplit.kafka.sinks.words-out.charset=ISO-8859-1",
                        "streamsplit.kafka.sources.raw.topics=raw",
                        "streamsplit.kafka.sources.raw.format=bytes",
                        "streamsplit.kafka.sinks.raw-out.topic=raw-out",
                        "streamsplit.kafka.sinks.raw-out.format=bytes",
                        "streamsplit.kafka.sources.transfers.topics=transfers",
                        "streamsplit.kafka.sources.transfers.format=protobuf",
                        "streamsplit.kafka.sources.transfers.type=" + Transfer.class.getName(),
                        "streamsplit.kafka.sources.transfers.bad-record-policy=dead-letter",
                        "streamsplit.kafka.sources.transfers.dead-letter-topic=transfers.DLT",
                        "streamsplit.kafka.sinks.transfers-out.topic=transfers-out",
                        "streamsplit.kafka.sinks.transfers-out.format=protobuf",
                        "streamsplit.kafka.sinks.transfers-out.key=account")
                .run()) {
            KafkaTopics.write(
                    servers,
                    List.of(
                            value(
                                    "orders",
                                    "{\"customer\":\"c-1\",\"amount\":12.50,\"placed_at\":\"2026-01-31T10:15:30Z\","
                                            + "\"lines\":[{\"sku\":\"A\",\"quantity\":2},{\"sku\":\"B\",\"quantity\":1}]}"),
                            value("orders", "not json"),
                            value("orders", "{\"customer\":\"c-2\",\"amount\":\"lots\"}"),
                            value(
                                    "orders",
                                    "{\"customer\":\"c-3\",\"amount\":0.99,\"placed_at\":\"2026-02-01T00:00:00Z\","
                                            + "\"lines\":[]}")));
            AvroFormat<Payment> avro = AvroFormat.specific(Payment.class);
            KafkaTopics.write(
                    servers,
                    List.of(
                            new ProducerRecord<>("payments", avro.serialize(new Payment("ann", 100))),
                            new ProducerRecord<>(
                                    "payments",
                                    bytes(new BinaryMessageEncoder<Payment>(SpecificData.get(), Payment.SCHEMA$)
                                            .encode(new Payment("bob", 5)))),
                            new ProducerRecord<>("payments", new byte[0]),
                            new ProducerRecord<>(
                                    "payments", new byte[] {(byte) 0xC3, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 9})));
            GenericRecord generic = new GenericData.Record(Payment.SCHEMA$);
            generic.put("payer", "cy");
            generic.put("cents", 7L);
            AvroFormat<GenericRecord> genericAvro = AvroFormat.generic(Payment.SCHEMA$);
            KafkaTopics.write(servers, List.of(new ProducerRecord<>("generic-in", genericAvro.serialize(generic))));
            KafkaTopics.write(
                    servers,
                    List.of(new ProducerRecord<>(
                            "words",
                            "k1".getBytes(StandardCharsets.UTF_8),
                            "Grüße".getBytes(StandardCharsets.ISO_8859_1))));
            byte[] truncated = {0x0A, 0x64}; // field 1: 100 bytes announced, none there
            KafkaTopics.write(
                    servers,
                    List.of(
                            new ProducerRecord<>(
                                    "transfers", transfer("t-1", 150).toByteArray()),
                            new ProducerRecord<>("transfers", truncated),
                            new ProducerRecord<>("transfers", transfer("t-2", 7).toByteArray())));
            byte[] raw = {0, 1, 2, (byte) 0xFF};
            KafkaTopics.write(servers, List.of(new ProducerRecord<>("raw", raw)));

            JsonMapper plain = JsonMapper.builder().build();
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                List<ConsumerRecord<byte[], byte[]>> totals = KafkaTopics.readAll(servers, "totals");
                assertThat(totals).hasSize(2);
                assertThat(totals.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)))
                        .containsExactly("c-1", "c-3");
                assertThat(totals.stream().map(r -> plain.readTree(r.value())))
                        .containsExactly(
                                plain.readTree("{\"customer\":\"c-1\",\"cents\":1250,\"items\":3,"
                                        + "\"placed_at\":\"2026-01-31T10:15:30Z\"}"),
                                plain.readTree("{\"customer\":\"c-3\",\"cents\":99,\"items\":0,"
                                        + "\"placed_at\":\"2026-02-01T00:00:00Z\"}"));
                assertThat(KafkaTopics.readAll(servers, "payments-out").stream().map(r -> read(avro, r.value())))
                        .containsExactly(new Payment("ANN", 200), new Payment("BOB", 10));
                assertThat(KafkaTopics.readAll(servers, "generic-out").stream()
                                .map(r -> read(genericAvro, r.value()).toString()))
                        .containsExactly("{\"payer\": \"cy\", \"cents\": 7}");
                assertThat(KafkaTopics.readAll(servers, "words-out").stream().map(ConsumerRecord::value))
                        .containsExactly("k1=GRÜSSE".getBytes(StandardCharsets.ISO_8859_1));
                assertThat(KafkaTopics.readAll(servers, "raw-out").stream().map(ConsumerRecord::value))
                        .containsExactly(raw);
                List<ConsumerRecord<byte[], byte[]>> transfers = KafkaTopics.readAll(servers, "transfers-out");
                assertThat(transfers.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)))
                        .containsExactly("t-1", "t-2");
                assertThat(transfers.stream().map(r -> parse(r.value())))
                        .containsExactly(transfer("t-1", 300), transfer("t-2", 14));
            });
            List<ConsumerRecord<byte[], byte[]>> badTransfers = KafkaTopics.readAll(servers, "transfers.DLT");
            assertThat(badTransfers).singleElement().satisfies(bad -> {
                assertThat(bad.value()).isEqualTo(truncated);
                assertThat(header(bad, DeadLetterRecord.HEADER_EXCEPTION_MESSAGE))
                        .contains("Not a " + Transfer.class.getName() + " Protobuf message (2 bytes)");
            });
            List<ConsumerRecord<byte[], byte[]>> deadLetters = KafkaTopics.readAll(servers, "orders.DLT");
            assertThat(deadLetters.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)))
                    .containsExactly("not json", "{\"customer\":\"c-2\",\"amount\":\"lots\"}");
            assertThat(header(deadLetters.get(1), DeadLetterRecord.HEADER_EXCEPTION_MESSAGE))
                    .contains("does not fit " + Order.class.getName() + " at $.amount");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(app.getBean(KafkaSplitStates.class)
                                .read()
                                .sources()
                                .get("orders")
                                .recordsDeadLettered())
                        .isEqualTo(2);
                assertThat(app.getBean(KafkaSplitStates.class)
                                .read()
                                .sources()
                                .get("payments")
                                .recordsSkipped())
                        .as("an empty value and a single-object record of another schema")
                        .isEqualTo(2);
            });

            // lineage: every source's topic with the fields its format knows, every sink's and dead-letter topic
            JobLineage lineage = app.getBean(StreamSplitJob.class).lineage();
            java.util.Map<String, List<String>> fields = new java.util.HashMap<>();
            lineage.inputs()
                    .forEach(in -> fields.put(
                            in.name(),
                            in.fields().stream().map(JobLineage.Field::name).toList()));
            assertThat(fields).containsOnlyKeys("orders", "payments", "generic-in", "words", "raw", "transfers");
            assertThat(fields.get("orders")).as("JSON with a type").contains("customer", "amount");
            assertThat(fields.get("payments"))
                    .as("Avro, a generated class")
                    .containsExactlyInAnyOrder("payer", "cents");
            assertThat(fields.get("generic-in")).as("Avro, a schema file").containsExactly("payer", "cents");
            assertThat(fields.get("transfers")).as("Protobuf").containsExactly("account", "cents");
            assertThat(fields.get("words"))
                    .as("text with a key: the key and the value")
                    .containsExactlyInAnyOrder("key", "value");
            assertThat(fields.get("raw")).as("bytes have no fields").isEmpty();
            assertThat(lineage.outputs())
                    .extracting(JobLineage.Dataset::name)
                    .contains("totals", "payments-out", "generic-out", "words-out", "raw-out", "transfers-out")
                    .contains("orders.DLT", "transfers.DLT");
        }
    }

    private static ProducerRecord<byte[], byte[]> value(String topic, String json) {
        return new ProducerRecord<>(topic, json.getBytes(StandardCharsets.UTF_8));
    }

    private static <T> T read(AvroFormat<T> format, byte[] value) {
        try {
            return format.deserialize(value);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        return Arrays.copyOfRange(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.limit());
    }

    private static Transfer transfer(String account, long cents) {
        return Transfer.newBuilder().setAccount(account).setCents(cents).build();
    }

    private static Transfer parse(byte[] bytes) {
        try {
            return Transfer.parseFrom(bytes);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
