package io.streamsplit.boot.autoconfigure.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.autoconfigure.kafka.format.proto.Receipt;
import io.streamsplit.boot.autoconfigure.kafka.format.proto.Transfer;
import io.streamsplit.connector.kafka.format.AvroFormat;
import io.streamsplit.connector.kafka.format.JsonFormat;
import io.streamsplit.connector.kafka.format.Keyed;
import io.streamsplit.connector.kafka.format.ProtobufTypeInfo;
import io.streamsplit.connector.kafka.format.TextFormat;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.formats.avro.typeutils.GenericRecordAvroTypeInfo;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code format:} picks the connector's schema for a YAML source or sink, and each way to get it wrong
 * fails startup with the property, the value and the fix.
 */
class FormatMistakesTest {

    public record Order(String id, long cents) {}

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
            .withPropertyValues(
                    "streamsplit.kafka.bootstrap-servers=b:1",
                    "streamsplit.kafka.embedded.enabled=false",
                    "streamsplit.kafka.startup-check.mode=off",
                    "streamsplit.kafka.sources.orders.topics=orders");

    private FailureAnalysis failure(String... properties) {
        return failure(runner, properties);
    }

    private static FailureAnalysis failure(ApplicationContextRunner runner, String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = FailureReports.analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("a failure analyzer explains the failure").isNotNull();
        return analysis[0];
    }

    private StreamSplitKafkaSource<?> source(String... properties) {
        StreamSplitKafkaSource<?>[] source = new StreamSplitKafkaSource<?>[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasNotFailed();
            source[0] = context.getBean("orders", StreamSplitKafkaSource.class);
        });
        return source[0];
    }

    @Test
    void eachFormatGivesTheSourceItsElementTypeWithoutKryo() {
        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=json",
                                "streamsplit.kafka.sources.orders.type=" + Order.class.getName())
                        .getProducedType())
                .isInstanceOf(PojoTypeInfo.class)
                .extracting(type -> type.getTypeClass())
                .isEqualTo(Order.class);
        assertThat(source("streamsplit.kafka.sources.orders.format=string").getProducedType())
                .isEqualTo(TextFormat.utf8().getProducedType());
        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=avro",
                                "streamsplit.kafka.sources.orders.type=" + Payment.class.getName())
                        .getProducedType())
                .isInstanceOf(AvroTypeInfo.class);
        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=avro",
                                "streamsplit.kafka.sources.orders.schema=classpath:avro/payment.avsc")
                        .getProducedType())
                .isInstanceOf(GenericRecordAvroTypeInfo.class);
        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=json",
                                "streamsplit.kafka.sources.orders.key-format=string",
                                "streamsplit.kafka.sources.orders.type=" + Order.class.getName())
                        .getProducedType())
                .isEqualTo(Keyed.typeInfo(TextFormat.utf8(), JsonFormat.of(Order.class)));
        assertThat(AvroFormat.specific(Payment.class).schema()).isEqualTo(Payment.SCHEMA$);
        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=protobuf",
                                "streamsplit.kafka.sources.orders.type=" + Transfer.class.getName())
                        .getProducedType())
                .isEqualTo(new ProtobufTypeInfo<>(Transfer.class));
    }

    @Test
    void protobufNeedsAClassProtocGeneratedAndASinkKeyItHas() {
        FailureAnalysis notGenerated = failure(
                "streamsplit.kafka.sources.orders.format=protobuf",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName());
        assertThat(notGenerated.getDescription())
                .contains("streamsplit.kafka.sources.orders.type", Order.class.getName(), "generated by protoc");
        assertThat(notGenerated.getAction()).contains("a class protoc generated for Java");
        assertThat(failure("streamsplit.kafka.sources.orders.format=protobuf").getDescription())
                .contains("streamsplit.kafka.sources.orders.type", "format protobuf reads each value into a class");

        FailureAnalysis key = failure(
                runner.withUserConfiguration(TransfersToTotals.class),
                "streamsplit.kafka.sources.orders.format=protobuf",
                "streamsplit.kafka.sources.orders.type=" + Transfer.class.getName(),
                "streamsplit.kafka.sinks.totals.topic=totals",
                "streamsplit.kafka.sinks.totals.format=protobuf",
                "streamsplit.kafka.sinks.totals.key=acount");
        assertThat(key.getDescription()).contains("streamsplit.kafka.sinks.totals.key", "'acount'");
        // the message's own fields, not protobuf-java's getters (serializedSize, descriptorForType, ...)
        assertThat(key.getAction()).contains("one of its fields [account, accountBytes, cents]");

        FailureAnalysis notMessages = failure(
                runner.withUserConfiguration(OrdersToTotals.class),
                "streamsplit.kafka.sources.orders.format=json",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName(),
                "streamsplit.kafka.sinks.totals.topic=totals",
                "streamsplit.kafka.sinks.totals.format=protobuf");
        assertThat(notMessages.getDescription())
                .contains("streamsplit.kafka.sinks.totals.format", Order.class.getName(), "generated by protoc");
    }

    @Test
    void aMessageClassNoSourceReadsGetsItsTypeFromTheSerializationConfigAsFormatsMdShows() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sources.orders.format=string",
                        "streamsplit.flink.configuration.pipeline.serialization-config=[" + Receipt.class.getName()
                                + ": {type: typeinfo, class: " + ProtobufTypeInfo.Factory.class.getName() + "}]")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.class);
                    assertThat(org.apache.flink.api.java.typeutils.TypeExtractor.getForClass(Receipt.class))
                            .isEqualTo(new ProtobufTypeInfo<>(Receipt.class));
                });
    }

    /** Transfers straight to the totals sink. */
    @Configuration(proxyBeanMethods = false)
    static class TransfersToTotals {

        @Bean
        io.streamsplit.pipeline.StreamSplitPipeline transfersToTotals() {
            return pipeline -> pipeline.sink("totals", pipeline.<Transfer>source("orders"));
        }
    }

    @Test
    void anUnknownFormatListsTheFormats() {
        FailureAnalysis analysis = failure("streamsplit.kafka.sources.orders.format=xml");
        assertThat(analysis.getDescription()).contains("streamsplit.kafka.sources.orders.format", "'xml'");
        assertThat(analysis.getAction())
                .contains("one of json, avro, avro-confluent, json-schema-confluent, protobuf, string, bytes");
    }

    @Test
    void aFormatAndADeserializerBeanTogetherAreRefused() {
        FailureAnalysis analysis = failure(
                runner.withUserConfiguration(TextDeserializer.class),
                "streamsplit.kafka.sources.orders.format=string",
                "streamsplit.kafka.sources.orders.deserializer=text");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.format", "both format 'string' and deserializer 'text'");
        assertThat(analysis.getAction()).contains("Remove streamsplit.kafka.sources.orders.deserializer");
    }

    @Test
    void jsonWithoutATypeOrWithATypeNotOnTheClasspath() {
        FailureAnalysis none = failure("streamsplit.kafka.sources.orders.format=json");
        assertThat(none.getDescription()).contains("streamsplit.kafka.sources.orders.type", "no type is set");
        assertThat(none.getAction()).contains("e.g. com.acme.Order");
        FailureAnalysis missing = failure(
                "streamsplit.kafka.sources.orders.format=json", "streamsplit.kafka.sources.orders.type=com.acme.Nope");
        assertThat(missing.getDescription()).contains("streamsplit.kafka.sources.orders.type", "'com.acme.Nope'");
        assertThat(missing.getAction()).contains("the fully qualified name of a class on the application's classpath");
    }

    @Test
    void jsonColumnsGiveRowsOfTheDeclaredNamesInOrderAndEachMistakeNamesItsKey() {
        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=json",
                                "streamsplit.kafka.sources.orders.columns.id=STRING",
                                "streamsplit.kafka.sources.orders.columns.placedAt=timestamp(3)",
                                "streamsplit.kafka.sources.orders.columns.amount=DECIMAL(10, 2)")
                        .getProducedType())
                .isEqualTo(new RowTypeInfo(
                        new TypeInformation<?>[] {Types.STRING, Types.LOCAL_DATE_TIME, Types.BIG_DEC},
                        new String[] {"id", "placedAt", "amount"}));

        FailureAnalysis unknown = failure(
                "streamsplit.kafka.sources.orders.format=json",
                "streamsplit.kafka.sources.orders.columns.id=STRING",
                "streamsplit.kafka.sources.orders.columns.tags=ARRAY<STRING>");
        assertThat(unknown.getDescription())
                .contains("streamsplit.kafka.sources.orders.columns.tags", "'ARRAY<STRING>'");
        assertThat(unknown.getAction()).contains("[STRING, VARCHAR", "DECIMAL(10, 2)");

        FailureAnalysis notJson = failure(
                "streamsplit.kafka.sources.orders.format=string", "streamsplit.kafka.sources.orders.columns.id=STRING");
        assertThat(notJson.getDescription()).contains("streamsplit.kafka.sources.orders.columns", "format is string");
        assertThat(notJson.getAction()).contains("Set streamsplit.kafka.sources.orders.format to json");

        FailureAnalysis both = failure(
                "streamsplit.kafka.sources.orders.format=json",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName(),
                "streamsplit.kafka.sources.orders.columns.id=STRING");
        assertThat(both.getDescription()).contains("streamsplit.kafka.sources.orders.columns", "both type");
        assertThat(both.getAction()).contains("Remove streamsplit.kafka.sources.orders.type to read Rows");

        FailureAnalysis noFormat = failure("streamsplit.kafka.sources.orders.columns.id=STRING");
        assertThat(noFormat.getDescription()).contains("streamsplit.kafka.sources.orders.columns", "format is not");

        assertThat(failure("streamsplit.kafka.sources.orders.format=json").getAction())
                .as("json without a type points to columns too")
                .contains("streamsplit.kafka.sources.orders.columns (e.g. id: STRING)");
    }

    @Test
    void avroNeedsASpecificRecordOrASchemaThatExistsAndParses() {
        FailureAnalysis notAvro = failure(
                "streamsplit.kafka.sources.orders.format=avro",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName());
        assertThat(notAvro.getDescription())
                .contains("streamsplit.kafka.sources.orders.type", "is not an Avro SpecificRecord");
        FailureAnalysis nothing = failure("streamsplit.kafka.sources.orders.format=avro");
        assertThat(nothing.getDescription()).contains("needs a SpecificRecord type or a schema");
        FailureAnalysis absent = failure(
                "streamsplit.kafka.sources.orders.format=avro",
                "streamsplit.kafka.sources.orders.schema=classpath:avro/order.avsc");
        assertThat(absent.getDescription())
                .contains("streamsplit.kafka.sources.orders.schema", "avro/order.avsc", "does not exist");
        FailureAnalysis broken = failure(
                "streamsplit.kafka.sources.orders.format=avro",
                "streamsplit.kafka.sources.orders.schema=classpath:avro/broken.avsc");
        assertThat(broken.getDescription()).contains("does not parse as Avro", "decimal-ish");
        FailureAnalysis both = failure(
                "streamsplit.kafka.sources.orders.format=avro",
                "streamsplit.kafka.sources.orders.type=" + Payment.class.getName(),
                "streamsplit.kafka.sources.orders.schema=classpath:avro/payment.avsc");
        assertThat(both.getDescription()).contains("carries its own schema");
    }

    @Test
    void theConfluentWireFormatsNeedAUsableRegistryAndTheirTypesAndSchemas() {
        FailureAnalysis noUrl = failure(
                "streamsplit.kafka.sources.orders.format=avro-confluent",
                "streamsplit.kafka.sources.orders.type=" + Payment.class.getName());
        assertThat(noUrl.getDescription())
                .contains("streamsplit.kafka.schema-registry.url", "streamsplit.kafka.sources.orders.format");
        assertThat(noUrl.getAction()).contains("e.g. http://registry:8081");
        FailureAnalysis noScheme = failure(
                "streamsplit.kafka.sources.orders.format=avro-confluent",
                "streamsplit.kafka.sources.orders.type=" + Payment.class.getName(),
                "streamsplit.kafka.schema-registry.url=registry:8081");
        assertThat(noScheme.getDescription())
                .contains("streamsplit.kafka.schema-registry.url", "'registry:8081'", "not an http(s) URL");
        FailureAnalysis noPassword = failure(
                "streamsplit.kafka.sources.orders.format=avro-confluent",
                "streamsplit.kafka.sources.orders.type=" + Payment.class.getName(),
                "streamsplit.kafka.schema-registry.url=http://registry:8081",
                "streamsplit.kafka.schema-registry.username=app");
        assertThat(noPassword.getDescription()).contains("streamsplit.kafka.schema-registry.password");
        FailureAnalysis noBundle = failure(
                "streamsplit.kafka.sources.orders.format=avro-confluent",
                "streamsplit.kafka.sources.orders.type=" + Payment.class.getName(),
                "streamsplit.kafka.schema-registry.url=https://registry:8081",
                "streamsplit.kafka.schema-registry.ssl-bundle=registry");
        assertThat(noBundle.getDescription()).contains("streamsplit.kafka.schema-registry.ssl-bundle", "'registry'");
        FailureAnalysis notAvro = failure(
                "streamsplit.kafka.sources.orders.format=avro-confluent",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName(),
                "streamsplit.kafka.schema-registry.url=http://registry:8081");
        assertThat(notAvro.getDescription())
                .contains("is not an Avro SpecificRecord, so format avro-confluent cannot read into it");

        FailureAnalysis jsonWithoutType = failure(
                "streamsplit.kafka.sources.orders.format=json-schema-confluent",
                "streamsplit.kafka.schema-registry.url=http://registry:8081");
        assertThat(jsonWithoutType.getDescription())
                .contains("streamsplit.kafka.sources.orders.type", "no type is set");
        FailureAnalysis sourceSchema = failure(
                "streamsplit.kafka.sources.orders.format=json-schema-confluent",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName(),
                "streamsplit.kafka.sources.orders.schema=classpath:avro/payment.avsc",
                "streamsplit.kafka.schema-registry.url=http://registry:8081");
        assertThat(sourceSchema.getDescription())
                .contains("streamsplit.kafka.sources.orders.schema", "a source has no use for a schema");
        FailureAnalysis sinkWithoutSchema = failure(
                "streamsplit.kafka.sources.orders.format=string",
                "streamsplit.kafka.sinks.totals.topic=totals",
                "streamsplit.kafka.sinks.totals.format=json-schema-confluent",
                "streamsplit.kafka.schema-registry.url=http://registry:8081");
        assertThat(sinkWithoutSchema.getDescription())
                .contains("streamsplit.kafka.sinks.totals.schema", "writes with a JSON Schema it registers");
        assertThat(sinkWithoutSchema.getAction()).contains("classpath:total.schema.json");
        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=json-schema-confluent",
                                "streamsplit.kafka.sources.orders.type=" + Order.class.getName(),
                                "streamsplit.kafka.schema-registry.url=http://registry:8081")
                        .getProducedType()
                        .getTypeClass())
                .isEqualTo(Order.class);

        assertThat(source(
                                "streamsplit.kafka.sources.orders.format=avro-confluent",
                                "streamsplit.kafka.sources.orders.type=" + Payment.class.getName(),
                                "streamsplit.kafka.schema-registry.url=http://registry:8081")
                        .getProducedType())
                .isEqualTo(new AvroTypeInfo<>(Payment.class));
    }

    @Test
    void formatsThatProduceTheirOwnTypeRefuseAnotherOne() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.format=string",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName());
        assertThat(analysis.getDescription()).contains("format string produces String elements, not Order");
        assertThat(failure("streamsplit.kafka.sources.orders.format=bytes", "streamsplit.kafka.sources.orders.schema=x")
                        .getDescription())
                .contains("streamsplit.kafka.sources.orders.schema", "format is bytes");
    }

    @Test
    void aSinkKeyThatIsNoFieldOfTheElementsShowsTheValueAndTheFields() {
        FailureAnalysis analysis = failure(
                runner.withUserConfiguration(OrdersToTotals.class),
                "streamsplit.kafka.sources.orders.format=json",
                "streamsplit.kafka.sources.orders.type=" + Order.class.getName(),
                "streamsplit.kafka.sinks.totals.topic=totals",
                "streamsplit.kafka.sinks.totals.format=json",
                "streamsplit.kafka.sinks.totals.key=custmer");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sinks.totals.key", "'custmer'", Order.class.getName())
                .doesNotContain("masked");
        assertThat(analysis.getAction()).contains("one of its fields [cents, id]");
    }

    /** Orders straight to the totals sink: the sink's elements are {@link Order}s. */
    @Configuration(proxyBeanMethods = false)
    static class OrdersToTotals {

        @Bean
        io.streamsplit.pipeline.StreamSplitPipeline ordersToTotals() {
            return pipeline -> pipeline.sink("totals", pipeline.<Order>source("orders"));
        }
    }

    @Test
    void keysAreReadAsTextOrBytesAndOnlyWithAValueFormat() {
        assertThat(failure(
                                "streamsplit.kafka.sources.orders.format=string",
                                "streamsplit.kafka.sources.orders.key-format=json")
                        .getDescription())
                .contains("streamsplit.kafka.sources.orders.key-format", "string or bytes only");
        assertThat(failure(
                                runner.withUserConfiguration(TextDeserializer.class),
                                "streamsplit.kafka.sources.orders.key-format=string")
                        .getDescription())
                .contains("key-format is set but format is not");
    }

    @Test
    void aSinkFormatAndASerializerBeanTogetherAreRefusedAtStartup() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.format=string",
                "streamsplit.kafka.sinks.totals.topic=totals",
                "streamsplit.kafka.sinks.totals.format=json",
                "streamsplit.kafka.sinks.totals.serializer=mine");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sinks.totals.format", "both format 'json' and serializer 'mine'");
        assertThat(failure(
                                "streamsplit.kafka.sources.orders.format=string",
                                "streamsplit.kafka.sinks.totals.topic=totals",
                                "streamsplit.kafka.sinks.totals.format=avro",
                                "streamsplit.kafka.sinks.totals.schema=classpath:avro/missing.avsc")
                        .getDescription())
                .contains("streamsplit.kafka.sinks.totals.schema", "does not exist");
    }

    @Configuration(proxyBeanMethods = false)
    static class TextDeserializer {

        @Bean
        KafkaRecordDeserializer<String> text() {
            return record -> new String(record.value(), StandardCharsets.UTF_8);
        }
    }
}
