package io.streamsplit.boot.autoconfigure.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.OfflineContexts;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The YAML sources as the job, its pipelines and SQL ask for them ({@link KafkaSources}): built from their
 * properties, with the configuration's rules applied and failures named by property path.
 */
class KafkaSourceFactoryTest {

    private final ApplicationContextRunner runner = OfflineContexts.runner()
            .withPropertyValues(
                    "streamsplit.kafka.sources.orders.topics=orders,refunds",
                    "streamsplit.kafka.sources.orders.format=string",
                    "streamsplit.kafka.sources.orders.group-id=billing",
                    "streamsplit.kafka.sources.clicks.pattern=clicks-.*",
                    "streamsplit.kafka.sources.clicks.format=string",
                    "streamsplit.kafka.sources.clicks.bootstrap-servers=edge:9092",
                    "streamsplit.kafka.sources.clicks.bad-record-policy=dead-letter",
                    "streamsplit.kafka.sources.clicks.dead-letter-topic=clicks.DLT",
                    "streamsplit.kafka.sources.clicks.watermarks.strategy=monotonous");

    @Test
    void aSourceIsBuiltFromItsYamlSettings() {
        sources(sources -> {
            StreamSplitKafkaSource<?> orders = sources.create("orders");

            assertThat(orders.topics()).containsExactly("orders", "refunds");
            assertThat(orders.getProducedType()).isEqualTo(Types.STRING);
            assertThat(orders.consumerProperties())
                    .containsEntry("bootstrap.servers", "shared:9092")
                    .containsEntry("group.id", "billing");
        });
    }

    @Test
    void whereEachSourceReadsWithThePropertyThatSetItsKafka() {
        sources(sources -> {
            assertThat(sources.names()).containsExactly("orders", "clicks");
            KafkaSources.Reading orders = sources.reading("orders");
            assertThat(orders.bootstrapServers()).isEqualTo("shared:9092");
            assertThat(orders.bootstrapServersProperty()).isEqualTo("streamsplit.kafka.bootstrap-servers");
            assertThat(orders.deadLetterTopic()).isNull();
            KafkaSources.Reading clicks = sources.reading("clicks");
            assertThat(clicks.bootstrapServers()).isEqualTo("edge:9092");
            assertThat(clicks.bootstrapServersProperty())
                    .isEqualTo("streamsplit.kafka.sources.clicks.bootstrap-servers");
            assertThat(clicks.topics()).isEmpty();
            assertThat(clicks.pattern()).isEqualTo("clicks-.*");
            assertThat(clicks.deadLetterTopic()).isEqualTo("clicks.DLT");
            assertThat(sources.sharedBootstrapServers()).isEqualTo("shared:9092");
            assertThat(sources.sharedIsDevBroker()).isFalse();
        });
    }

    @Test
    void aNameNobodyConfiguredFailsNamingTheConfiguredSources() {
        sources(sources -> {
            assertThat(sources.isConfigured("payments")).isFalse();
            assertThatThrownBy(() -> sources.reading("payments"))
                    .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                        assertThat(e.getProperty()).isEqualTo("streamsplit.kafka.sources");
                        assertThat(e.getValue()).isEqualTo("payments");
                        assertThat(e.getAction())
                                .contains("[orders, clicks]", "streamsplit.kafka.sources.payments.topics");
                    });
        });
    }

    @Test
    void eventTimeAndColumnsAreWhatTheSourceConfigures() {
        sources(sources -> {
            assertThat(sources.hasEventTime("clicks")).isTrue();
            assertThat(sources.hasEventTime("orders")).isFalse();
            assertThat(sources.hasEventTime("a-bean-of-the-app"))
                    .as("not in YAML: none")
                    .isFalse();
            assertThat(sources.columns("orders")).isEmpty();
        });
    }

    @Test
    void uidsDefaultToTheConnectorsAndAreRefusedWhenBlankOrShared() {
        sources(sources -> assertThat(sources.uid("orders")).isEqualTo("orders-source"));
        runner.withPropertyValues("streamsplit.kafka.sources.clicks.uid=orders-source")
                .run(context -> {
                    KafkaSources sources = context.getBean(KafkaSourceFactory.class);
                    assertThatThrownBy(() -> sources.uid("clicks"))
                            .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                                assertThat(e.getProperty()).isEqualTo("streamsplit.kafka.sources.clicks.uid");
                                assertThat(e.getProblem()).contains("source 'orders' has the same uid");
                            });
                });
    }

    @Test
    void aValueTheConnectorsBuilderRefusesIsReportedUnderItsPropertyPath() {
        runner.withPropertyValues("streamsplit.kafka.sources.orders.discovery-interval=-5s")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(FailureReports.configurationFailure(context.getStartupFailure())
                                    .getProperty())
                            .isEqualTo("streamsplit.kafka.sources.orders.discovery-interval");
                });
    }

    @Test
    void aDeclaredSettingOfTheConnectorIsBoundByItsKeyAndItsRuleFailsStartupUnderThatKey() {
        runner.withPropertyValues("streamsplit.kafka.sources.orders.max-poll-records=50")
                .run(context -> assertThat(context.getBean(KafkaSourceFactory.class)
                                .create("orders")
                                .consumerProperties())
                        .containsEntry("max.poll.records", "50"));
        runner.withPropertyValues("streamsplit.kafka.sources.orders.max-poll-records=0")
                .run(context -> {
                    assertThat(context).hasFailed();
                    InvalidStreamSplitConfigurationException failure =
                            FailureReports.configurationFailure(context.getStartupFailure());
                    assertThat(failure.getProperty()).isEqualTo("streamsplit.kafka.sources.orders.max-poll-records");
                    assertThat(failure.getValue()).isEqualTo(0);
                    assertThat(failure.getProblem()).isEqualTo("the value must be at least 1");
                });
    }

    @Test
    void specificOffsetsStartAndStopEachListedPartitionWhereTheYamlSays() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sources.orders.starting-offsets=specific",
                        "streamsplit.kafka.sources.orders.starting-specific-offsets.orders-0=42",
                        "streamsplit.kafka.sources.orders.starting-specific-offsets[my.topic-1]=7",
                        "streamsplit.kafka.sources.orders.stopping-offsets=specific",
                        "streamsplit.kafka.sources.orders.stopping-specific-offsets.orders-0=1000")
                .run(context -> {
                    StreamSplitKafkaSource<?> orders =
                            context.getBean(KafkaSourceFactory.class).create("orders");
                    StartingOffsets starting = orders.startingOffsets();
                    assertThat(starting.kind()).isEqualTo(StartingOffsets.Kind.SPECIFIC);
                    assertThat(starting.specificOffsets())
                            .containsOnly(
                                    Map.entry(new TopicPartition("orders", 0), 42L),
                                    Map.entry(new TopicPartition("my.topic", 1), 7L));
                    assertThat(Objects.requireNonNull(starting.fallback()).kind())
                            .as("partitions not listed")
                            .isEqualTo(StartingOffsets.Kind.EARLIEST);
                    StoppingOffsets stopping = Objects.requireNonNull(orders.stoppingOffsets());
                    assertThat(stopping.kind()).isEqualTo(StoppingOffsets.Kind.SPECIFIC);
                    assertThat(stopping.specificOffsets())
                            .containsOnly(Map.entry(new TopicPartition("orders", 0), 1000L));
                    assertThat(orders.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
                });
    }

    @Test
    void specificOffsetsThatNameNoPartitionFailStartupNamingTheEntry() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sources.orders.starting-offsets=specific",
                        "streamsplit.kafka.sources.orders.starting-specific-offsets.orders=42")
                .run(context -> {
                    InvalidStreamSplitConfigurationException failure =
                            FailureReports.configurationFailure(context.getStartupFailure());
                    assertThat(failure.getProperty())
                            .isEqualTo("streamsplit.kafka.sources.orders.starting-specific-offsets.orders");
                    assertThat(failure.getProblem()).contains("'orders' is not a partition");
                    assertThat(failure.getAction()).contains("<topic>-<partition>: <offset> (e.g. orders-0: 42)");
                });
        runner.withPropertyValues("streamsplit.kafka.sources.orders.stopping-offsets=specific")
                .run(context -> {
                    InvalidStreamSplitConfigurationException failure =
                            FailureReports.configurationFailure(context.getStartupFailure());
                    assertThat(failure.getProperty())
                            .isEqualTo("streamsplit.kafka.sources.orders.stopping-specific-offsets");
                    assertThat(failure.getProblem())
                            .isEqualTo("stopping-offsets is 'specific' but"
                                    + " streamsplit.kafka.sources.orders.stopping-specific-offsets lists no partition");
                });
    }

    @Test
    void theDefaultsAsTheyShip() {
        sources(sources -> {
            StreamSplitKafkaSource<?> orders = sources.create("orders");
            assertThat(orders.discoveryInterval())
                    .as("partitions found once at start")
                    .isEqualTo(Duration.ZERO);
            assertThat(orders.consumerProperties()).containsEntry("isolation.level", "read_committed");
            assertThat(orders.maxRecordsPerSecond()).as("unthrottled").isZero();
            assertThat(orders.consumerProperties()).containsEntry("max.poll.records", "2000");
            assertThat(orders.stoppingOffsets()).as("unbounded").isNull();
            assertThat(orders.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        });
    }

    private void sources(Consumer<KafkaSources> test) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            test.accept(context.getBean(KafkaSourceFactory.class));
        });
    }
}
