package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.flink.StreamExecutionEnvironmentCustomizer;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSinkCustomizer;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSourceCustomizer;
import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** Customizer beans change one builder setting without replacing a bean, in {@code @Order}. */
class CustomizersTest {

    /** These contexts have no Kafka to talk to: the startup check (tested against a real broker elsewhere) is off. */
    private static final String NO_KAFKA_CHECK = "streamsplit.kafka.startup-check.mode=off";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(NO_KAFKA_CHECK)
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
            .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
            .withBean("utf8", SimpleStringSchema.class, SimpleStringSchema::new)
            .withPropertyValues(
                    "streamsplit.kafka.bootstrap-servers=b:1",
                    "streamsplit.kafka.embedded.enabled=false",
                    "streamsplit.kafka.sources.orders.topics=orders",
                    "streamsplit.kafka.sources.orders.deserializer=text",
                    "streamsplit.kafka.sources.clicks.topics=clicks",
                    "streamsplit.kafka.sources.clicks.deserializer=text");

    @Test
    void sourceCustomizersRunInOrderForEverySourceAfterTheYamlSettings() {
        runner.withUserConfiguration(SourceCustomizers.class)
                .withPropertyValues("streamsplit.kafka.sources.orders.properties.max.poll.records=50")
                .run(context -> {
                    StreamSplitKafkaSource<?> orders = context.getBean("orders", StreamSplitKafkaSource.class);
                    StreamSplitKafkaSource<?> clicks = context.getBean("clicks", StreamSplitKafkaSource.class);
                    // the later customizer (@Order 2) wins over the earlier, and both over YAML
                    assertThat(orders.consumerProperties()).containsEntry("max.poll.records", "7");
                    assertThat(orders.badRecordPolicy()).isEqualTo(BadRecordPolicy.SKIP);
                    assertThat(clicks.badRecordPolicy()).isEqualTo(BadRecordPolicy.FAIL);
                    assertThat(orders.getProducedType()).isEqualTo(Types.STRING);
                    assertThat(context.getBean(SourceCustomizers.class).seen)
                            .containsExactlyInAnyOrder(
                                    "first:orders", "first:clicks", "second:orders", "second:clicks");
                });
    }

    @Test
    void aRuleTheBuilderRejectsAfterACustomizerFailsStartupNamingTheSetting() {
        runner.withBean(
                        StreamSplitKafkaSourceCustomizer.class,
                        () -> (name, builder) -> builder.setCommitOffsetsOnCheckpoint(true))
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = FailureReports.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .contains("streamsplit.kafka.sources.", ".group-id", "no consumer group to commit to");
                    assertThat(analysis.getAction()).contains(".commit-offsets to false");
                });
    }

    @Test
    void sinkCustomizersSeeEveryConfiguredSinkAndTheDeadLetterSinks() {
        List<String> seen = new ArrayList<>();
        runner.withBean(StreamSplitKafkaSinkCustomizer.class, () -> (name, builder) -> {
                    seen.add(name);
                    builder.setProperty("compression.type", "zstd");
                })
                .withPropertyValues(
                        "streamsplit.kafka.sinks.totals.topic=totals",
                        "streamsplit.kafka.sinks.totals.serializer=utf8",
                        "streamsplit.kafka.sources.orders.bad-record-policy=dead-letter",
                        "streamsplit.kafka.sources.orders.dead-letter-topic=orders.DLT")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(seen).contains("totals");
                    context.getBean(KafkaSinkFactory.class).deadLetters("orders");
                    assertThat(seen).contains("orders.dead-letters");
                });
    }

    @Test
    void environmentCustomizersRunOnceBeforeAnyPipelineBuilds() {
        runner.withUserConfiguration(EnvironmentCustomizer.class).run(context -> {
            StreamExecutionEnvironment environment = context.getBean(StreamExecutionEnvironment.class);
            assertThat(environment.getConfig().isObjectReuseEnabled()).isTrue();
            assertThat(environment.getBufferTimeout()).isEqualTo(5L);
            assertThat(context.getBean(EnvironmentCustomizer.class).calls).isEqualTo(1);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class SourceCustomizers {

        final List<String> seen = new ArrayList<>();

        @Bean
        @Order(2)
        StreamSplitKafkaSourceCustomizer second() {
            return (name, builder) -> {
                seen.add("second:" + name);
                if (name.equals("orders")) {
                    builder.setProperty("max.poll.records", "7");
                }
            };
        }

        @Bean
        @Order(1)
        StreamSplitKafkaSourceCustomizer first() {
            return (name, builder) -> {
                seen.add("first:" + name);
                if (name.equals("orders")) {
                    builder.setProperty("max.poll.records", "3").setBadRecordPolicy(BadRecordPolicy.SKIP);
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class EnvironmentCustomizer {

        int calls;

        @Bean
        StreamExecutionEnvironmentCustomizer objectReuseAndLowLatency() {
            return environment -> {
                calls++;
                environment.getConfig().enableObjectReuse();
                environment.setBufferTimeout(5);
            };
        }
    }
}
