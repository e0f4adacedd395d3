package io.streamsplit.boot.autoconfigure.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import org.apache.flink.api.connector.sink2.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * A Spring developer's {@code spring.kafka.*} settings, as StreamSplit's sources and sinks take them: the
 * consumer group, offset reset and client id a source without its own uses, the transactional id prefix
 * of an exactly-once sink without its own; StreamSplit's own keys win; a setting with no meaning for
 * StreamSplit is said at start-up, never ignored in silence.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringKafkaSettingsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(
                    "streamsplit.kafka.startup-check.mode=off",
                    "streamsplit.kafka.bootstrap-servers=b:1",
                    "streamsplit.kafka.embedded.enabled=false",
                    "streamsplit.kafka.sources.orders.topics=orders",
                    "streamsplit.kafka.sources.orders.format=string",
                    "streamsplit.kafka.sources.clicks.topics=clicks",
                    "streamsplit.kafka.sources.clicks.format=string",
                    "streamsplit.kafka.sources.clicks.group-id=clicks-app",
                    "streamsplit.kafka.sources.clicks.on-missing-commit=fail")
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class));

    @Test
    void theConsumerGroupOffsetResetAndClientIdOfSpringKafkaAreASourcesDefaults() {
        runner.withPropertyValues(
                        "spring.kafka.consumer.group-id=orders-app",
                        "spring.kafka.consumer.auto-offset-reset=latest",
                        "spring.kafka.client-id=orders-client")
                .run(context -> {
                    StreamSplitKafkaSource<?> orders = context.getBean("orders", StreamSplitKafkaSource.class);
                    assertThat(orders.consumerProperties().getProperty("group.id"))
                            .isEqualTo("orders-app");
                    assertThat(orders.startingOffsets().kind()).isEqualTo(StartingOffsets.Kind.COMMITTED);
                    assertThat(orders.startingOffsets().missingCommitStrategy()).isEqualTo(OffsetResetStrategy.LATEST);
                    assertThat(orders.consumerProperties().getProperty("auto.offset.reset"))
                            .isEqualTo("latest");
                    assertThat(orders.consumerProperties().getProperty("client.id"))
                            .startsWith("orders-client");

                    StreamSplitKafkaSource<?> clicks = context.getBean("clicks", StreamSplitKafkaSource.class);
                    assertThat(clicks.consumerProperties().getProperty("group.id"))
                            .as("the source's own group-id wins")
                            .isEqualTo("clicks-app");
                    assertThat(clicks.startingOffsets().missingCommitStrategy())
                            .as("the source's own on-missing-commit wins")
                            .isEqualTo(OffsetResetStrategy.FAIL);
                });
    }

    @Test
    void anExactlyOnceSinkWithoutItsOwnPrefixTakesSpringKafkasTransactionIdPrefix() {
        runner.withPropertyValues(
                        "spring.kafka.producer.transaction-id-prefix=orders-tx",
                        "streamsplit.kafka.sinks.out.topic=out",
                        "streamsplit.kafka.sinks.out.format=string",
                        "streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once",
                        "streamsplit.kafka.sinks.audit.topic=audit",
                        "streamsplit.kafka.sinks.audit.format=string",
                        "streamsplit.kafka.sinks.audit.delivery-guarantee=exactly-once",
                        "streamsplit.kafka.sinks.audit.transactional-id-prefix=audit-own")
                .run(context -> {
                    KafkaSinkFactory sinks = context.getBean(KafkaSinkFactory.class);
                    assertThat(prefix(sinks.create("out", null))).isEqualTo("orders-tx-out");
                    assertThat(prefix(sinks.create("audit", null))).isEqualTo("audit-own");
                });
    }

    @Test
    void settingsWithNoMeaningForStreamSplitAreNamedAtStartup(CapturedOutput output) {
        runner.withPropertyValues(
                        "spring.kafka.consumer.group-id=orders-app",
                        "spring.kafka.consumer.value-deserializer=org.example.OrderDeserializer",
                        "spring.kafka.consumer.enable-auto-commit=true",
                        "spring.kafka.listener.ack-mode=manual",
                        "spring.kafka.properties.spring.json.trusted.packages=*")
                .run(context -> assertThat(context).hasNotFailed());

        String line = output.toString()
                .lines()
                .filter(each -> each.contains("configure(s) none of StreamSplit's Kafka clients"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line names the unused settings:\n" + output));
        assertThat(line)
                .contains(
                        "spring.kafka.consumer.value-deserializer",
                        "spring.kafka.consumer.enable-auto-commit",
                        "spring.kafka.listener.ack-mode",
                        "spring.kafka.properties.spring.json.trusted.packages")
                .doesNotContain("spring.kafka.consumer.group-id");
        assertThat(output.toString().lines().filter(each -> each.contains("configure(s) none of StreamSplit's")))
                .hasSize(1);
    }

    private static Object prefix(Sink<?> sink) {
        Object official = ReflectionTestUtils.getField(sink, "official");
        return ReflectionTestUtils.getField(official == null ? sink : official, "transactionalIdPrefix");
    }
}
