package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.SubmittedJobClient;
import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.RemoteStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Binding, conditions and back-off of {@link StreamSplitAutoConfiguration}; no broker, no job. */
class StreamSplitAutoConfigurationTest {

    /** These contexts have no Kafka to talk to: the startup check (tested against a real broker elsewhere) is off. */
    private static final String NO_KAFKA_CHECK = "streamsplit.kafka.startup-check.mode=off";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(NO_KAFKA_CHECK)
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
            .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
            .withPropertyValues("streamsplit.kafka.bootstrap-servers=broker-a:9092");

    @Test
    void everyConfiguredSourceIsABeanNamedAfterIt() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sources.orders.topics=orders,returns",
                        "streamsplit.kafka.sources.orders.group-id=totals",
                        "streamsplit.kafka.sources.orders.starting-offsets=committed",
                        "streamsplit.kafka.sources.orders.offset-reset-strategy=latest",
                        "streamsplit.kafka.sources.orders.bad-record-policy=skip",
                        "streamsplit.kafka.sources.clicks.pattern=clicks-.*",
                        "streamsplit.kafka.sources.clicks.discovery-interval=30s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StreamSplitKafkaSource<?> orders = context.getBean("orders", StreamSplitKafkaSource.class);
                    assertThat(orders.name()).isEqualTo("orders");
                    assertThat(orders.subscription().toString()).contains("orders", "returns");
                    assertThat(orders.consumerProperties())
                            .containsEntry("bootstrap.servers", "broker-a:9092")
                            .containsEntry("group.id", "totals")
                            .containsEntry("auto.offset.reset", "latest");
                    assertThat(orders.startingOffsets().kind()).isEqualTo(StartingOffsets.Kind.COMMITTED);
                    assertThat(orders.badRecordPolicy()).isEqualTo(BadRecordPolicy.SKIP);
                    assertThat(orders.getProducedType()).isEqualTo(Types.STRING);
                    StreamSplitKafkaSource<?> clicks = context.getBean("clicks", StreamSplitKafkaSource.class);
                    assertThat(clicks.subscription().toString()).contains("clicks-.*");
                    assertThat(clicks.discoveryInterval()).isEqualTo(Duration.ofSeconds(30));
                });
    }

    @Test
    void anOffsetGoneFromTheLogAndAMissingCommitAreSetApartAndTheOldKeyStillSetsBoth() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sources.orders.topics=orders",
                        "streamsplit.kafka.sources.orders.group-id=totals",
                        "streamsplit.kafka.sources.orders.starting-offsets=committed",
                        "streamsplit.kafka.sources.orders.on-offset-out-of-range=latest",
                        "streamsplit.kafka.sources.orders.on-missing-commit=fail",
                        "streamsplit.kafka.sources.legacy.topics=legacy",
                        "streamsplit.kafka.sources.legacy.group-id=totals",
                        "streamsplit.kafka.sources.legacy.starting-offsets=committed",
                        "streamsplit.kafka.sources.legacy.offset-reset-strategy=latest",
                        "streamsplit.kafka.sources.legacy.on-missing-commit=fail",
                        "streamsplit.kafka.sources.plain.topics=plain",
                        "streamsplit.kafka.sources.plain.group-id=totals",
                        "streamsplit.kafka.sources.plain.starting-offsets=committed")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StreamSplitKafkaSource<?> orders = context.getBean("orders", StreamSplitKafkaSource.class);
                    assertThat(orders.consumerProperties()).containsEntry("auto.offset.reset", "latest");
                    assertThat(orders.startingOffsets().missingCommitStrategy()).isEqualTo(OffsetResetStrategy.FAIL);
                    // the deprecated key stands for what is not set on its own
                    StreamSplitKafkaSource<?> legacy = context.getBean("legacy", StreamSplitKafkaSource.class);
                    assertThat(legacy.consumerProperties()).containsEntry("auto.offset.reset", "latest");
                    assertThat(legacy.startingOffsets().missingCommitStrategy()).isEqualTo(OffsetResetStrategy.FAIL);
                    StreamSplitKafkaSource<?> plain = context.getBean("plain", StreamSplitKafkaSource.class);
                    assertThat(plain.consumerProperties()).containsEntry("auto.offset.reset", "earliest");
                    assertThat(plain.startingOffsets().missingCommitStrategy()).isEqualTo(OffsetResetStrategy.EARLIEST);
                });
    }

    @Test
    void sourceBootstrapServersOverrideTheCommonOnesAndSourcePropertiesOverrideCommonProperties() {
        runner.withPropertyValues(
                        "streamsplit.kafka.properties.max.poll.records=100",
                        "streamsplit.kafka.properties.fetch.min.bytes=2",
                        "streamsplit.kafka.sources.orders.topics=orders",
                        "streamsplit.kafka.sources.orders.bootstrap-servers=broker-b:9093",
                        "streamsplit.kafka.sources.orders.properties.max.poll.records=7")
                .run(context -> {
                    StreamSplitKafkaSource<?> orders = context.getBean("orders", StreamSplitKafkaSource.class);
                    assertThat(orders.consumerProperties())
                            .containsEntry("bootstrap.servers", "broker-b:9093")
                            .containsEntry("max.poll.records", "7")
                            .containsEntry("fetch.min.bytes", "2");
                });
    }

    @Test
    void springKafkaBootstrapServersAreUsedWhenStreamSplitHasNone() {
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(
                        AutoConfigurations.of(KafkaAutoConfiguration.class, StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
                .withPropertyValues(
                        "spring.kafka.bootstrap-servers=boot-broker:9092",
                        "streamsplit.kafka.sources.orders.topics=orders")
                .run(context -> assertThat(context.getBean("orders", StreamSplitKafkaSource.class)
                                .consumerProperties())
                        .containsEntry("bootstrap.servers", "boot-broker:9092"));
    }

    @Test
    void springKafkaBootstrapServersWorkWithoutSpringKafkaOnTheClasspath() {
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withClassLoader(new FilteredClassLoader(KafkaConnectionDetails.class, EmbeddedKafkaBroker.class))
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
                .withPropertyValues(
                        "spring.kafka.bootstrap-servers=plain-broker:9092",
                        "streamsplit.kafka.sources.orders.topics=orders")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedKafkaDevBroker.class);
                    assertThat(context.getBean("orders", StreamSplitKafkaSource.class)
                                    .consumerProperties())
                            .containsEntry("bootstrap.servers", "plain-broker:9092");
                });
    }

    @Test
    void aKafkaConnectionDetailsBeanWinsOverSpringKafkaProperties() {
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(
                        AutoConfigurations.of(KafkaAutoConfiguration.class, StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.OneStringDeserializer.class, ServiceConnection.class)
                .withPropertyValues(
                        "spring.kafka.bootstrap-servers=boot-broker:9092",
                        "streamsplit.kafka.sources.orders.topics=orders")
                .run(context -> assertThat(context.getBean("orders", StreamSplitKafkaSource.class)
                                .consumerProperties())
                        .containsEntry("bootstrap.servers", "container:1234,container:1235"));
    }

    @Test
    void streamSplitBootstrapServersWinOverSpringBootsConnection() {
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(
                        AutoConfigurations.of(KafkaAutoConfiguration.class, StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.OneStringDeserializer.class, ServiceConnection.class)
                .withPropertyValues(
                        "streamsplit.kafka.bootstrap-servers=mine:9092",
                        "streamsplit.kafka.sources.orders.topics=orders")
                .run(context -> assertThat(context.getBean("orders", StreamSplitKafkaSource.class)
                                .consumerProperties())
                        .containsEntry("bootstrap.servers", "mine:9092"));
    }

    @Test
    void devBrokerIsOfferedOnlyWithEmbeddedKafkaOnTheClasspathAndNotDisabled() {
        runner.run(context -> assertThat(
                        context.getBean(EmbeddedKafkaDevBroker.class).allowed())
                .as("a development run: the test's classes come from a directory")
                .isTrue());
        runner.withPropertyValues("streamsplit.kafka.embedded.enabled=false")
                .run(context -> assertThat(
                                context.getBean(EmbeddedKafkaDevBroker.class).allowed())
                        .isFalse());
        runner.withClassLoader(new FilteredClassLoader(EmbeddedKafkaBroker.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedKafkaDevBroker.class));
    }

    @Test
    void configuredBootstrapServersNeverStartTheDevBroker() {
        runner.withPropertyValues("streamsplit.kafka.sources.orders.topics=orders")
                .run(context -> {
                    context.getBean("orders");
                    assertThat(context.getBean(EmbeddedKafkaDevBroker.class).isStarted())
                            .isFalse();
                });
    }

    @Test
    void deserializerIsFoundByNameAmongSeveralAndItsElementTypeComesFromTheBeanDeclaration() {
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.TwoDeserializers.class)
                .withPropertyValues(
                        "streamsplit.kafka.bootstrap-servers=b:1",
                        "streamsplit.kafka.sources.sizes.topics=t",
                        "streamsplit.kafka.sources.sizes.deserializer=length")
                .run(context -> assertThat(context.getBean("sizes", StreamSplitKafkaSource.class)
                                .getProducedType())
                        .isEqualTo(Types.INT));
    }

    @Test
    void flinkDeserializationSchemaAndRecordEmitterBeansAreAccepted() {
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.FlinkSchemaAndEmitter.class)
                .withPropertyValues(
                        "streamsplit.kafka.bootstrap-servers=b:1",
                        "streamsplit.kafka.sources.lines.topics=t",
                        "streamsplit.kafka.sources.lines.deserializer=strings",
                        "streamsplit.kafka.sources.tokens.topics=t",
                        "streamsplit.kafka.sources.tokens.record-emitter=words")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("lines", StreamSplitKafkaSource.class)
                                    .getProducedType())
                            .isEqualTo(Types.STRING);
                    assertThat(context.getBean("tokens", StreamSplitKafkaSource.class)
                                    .getProducedType())
                            .isEqualTo(Types.STRING);
                });
    }

    @Test
    void typePropertyGivesTheElementTypeOfARawDeserializer() {
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.RawLambdaDeserializer.class)
                .withPropertyValues(
                        "streamsplit.kafka.bootstrap-servers=b:1",
                        "streamsplit.kafka.sources.s.topics=t",
                        "streamsplit.kafka.sources.s.type=java.lang.String")
                .run(context -> assertThat(context.getBean("s", StreamSplitKafkaSource.class)
                                .getProducedType())
                        .isEqualTo(Types.STRING));
    }

    @Test
    void userDefinedBeansReplaceTheAutoConfiguredOnes() {
        runner.withUserConfiguration(UserBeansConfiguration.class)
                .withPropertyValues("streamsplit.kafka.sources.orders.topics=orders")
                .run(context -> {
                    assertThat(context.getBean(StreamExecutionEnvironment.class))
                            .isSameAs(UserBeansConfiguration.ENV);
                    assertThat(context.getBean("orders")).isSameAs(UserBeansConfiguration.ORDERS);
                    assertThat(context.getBean(JobClient.class)).isSameAs(UserBeansConfiguration.CLIENT);
                });
    }

    @Test
    void restartsByDefaultAsAHandWiredCheckpointedJobDoes() {
        runner.run(context -> {
            org.apache.flink.configuration.ReadableConfig config =
                    context.getBean(StreamExecutionEnvironment.class).getConfiguration();
            // Flink's default once checkpointing is on: a lost TaskManager costs 1 s of waiting, not more
            assertThat(config.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("exponential-delay");
            assertThat(config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF))
                    .isEqualTo(
                            RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF.defaultValue());
            assertThat(config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF))
                    .isEqualTo(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF.defaultValue());
        });
    }

    @Test
    void embeddedModeMapsFlinkSettingsOntoTheEnvironment() {
        runner.withPropertyValues(
                        "streamsplit.flink.parallelism=3",
                        "streamsplit.flink.checkpointing.interval=7s",
                        "streamsplit.flink.checkpointing.mode=at-least-once",
                        "streamsplit.flink.restart.strategy=exponential-delay",
                        "streamsplit.flink.restart.delay=3s",
                        "streamsplit.flink.configuration.pipeline.max-parallelism=64",
                        "streamsplit.flink.configuration.pipeline.object-reuse=true")
                .run(context -> {
                    assertThat(context).hasSingleBean(EmbeddedFlinkCluster.class);
                    StreamExecutionEnvironment env = context.getBean(StreamExecutionEnvironment.class);
                    assertThat(env.getParallelism()).isEqualTo(3);
                    assertThat(env.getMaxParallelism()).isEqualTo(64);
                    // the README's performance tip: raw configuration reaches the job's execution config
                    assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
                    assertThat(env.getCheckpointConfig().getCheckpointInterval())
                            .isEqualTo(7_000L);
                    assertThat(env.getCheckpointingConsistencyMode()).isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
                    assertThat(env.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
                            .isEqualTo("exponential-delay");
                    assertThat(env.getConfiguration()
                                    .get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF))
                            .isEqualTo(Duration.ofSeconds(3));
                    assertThat(context.getBean(EmbeddedFlinkCluster.class).isRunning())
                            .as("without a StreamSplitPipeline bean no job is coming, so no MiniCluster starts")
                            .isFalse();
                });
    }

    @Test
    void checkpointingCanBeTurnedOffAndEmbeddedParallelismDefaultsToTheCores() {
        runner.withPropertyValues("streamsplit.flink.checkpointing.enabled=false")
                .run(context -> {
                    StreamExecutionEnvironment env = context.getBean(StreamExecutionEnvironment.class);
                    assertThat(env.getCheckpointConfig().isCheckpointingEnabled())
                            .isFalse();
                    assertThat(env.getConfiguration().get(CoreOptions.DEFAULT_PARALLELISM))
                            .isEqualTo(Runtime.getRuntime().availableProcessors());
                });
    }

    @Test
    void checkpointStorageKeepsCheckpointsForARestart() {
        runner.withPropertyValues("streamsplit.flink.checkpointing.storage=file:///tmp/cp")
                .run(context -> {
                    StreamExecutionEnvironment env = context.getBean(StreamExecutionEnvironment.class);
                    assertThat(env.getConfiguration().get(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
                            .isEqualTo("file:///tmp/cp");
                    assertThat(env.getConfiguration().get(CheckpointingOptions.CHECKPOINT_STORAGE))
                            .isEqualTo("filesystem");
                });
    }

    @Test
    void remoteModeTalksToTheConfiguredJobManagerAndStartsNoMiniCluster() {
        runner.withPropertyValues(
                        "streamsplit.flink.mode=remote",
                        "streamsplit.flink.remote.host=flink-jm",
                        "streamsplit.flink.remote.port=18081")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(EmbeddedFlinkCluster.class);
                    assertThat(context.getBean(StreamExecutionEnvironment.class))
                            .isInstanceOf(RemoteStreamEnvironment.class);
                    assertThat(context.getBean(StreamExecutionEnvironment.class)
                                    .getConfiguration()
                                    .toMap())
                            .containsEntry("rest.address", "flink-jm")
                            .containsEntry("rest.port", "18081");
                });
    }

    @Test
    void jobNameComesFromSpringApplicationNameUnlessSet() {
        runner.withPropertyValues("spring.application.name=order-service")
                .run(context -> assertThat(context.getBean(StreamSplitJob.class).jobName())
                        .isEqualTo("order-service"));
        runner.withPropertyValues("spring.application.name=order-service", "streamsplit.flink.job-name=totals")
                .run(context -> assertThat(context.getBean(StreamSplitJob.class).jobName())
                        .isEqualTo("totals"));
    }

    @Test
    void withoutPipelinesNoJobIsSubmittedAndTheJobClientSaysWhy() {
        runner.run(context -> {
            assertThat(context.getBean(StreamSplitJob.class).submission()).isCompletedExceptionally();
            assertThat(org.assertj.core.api.Assertions.catchThrowable(
                            () -> context.getBean(JobClient.class).getJobID()))
                    .hasMessageContaining("no StreamSplitPipeline beans");
        });
    }

    @Test
    void deadLettersAreWrittenWithTheStrongestGuaranteeOfTheConfiguredSinks() {
        runner.run(context -> assertThat(context.getBean(KafkaSinkFactory.class).deadLetterGuarantee())
                .isEqualTo(org.apache.flink.connector.base.DeliveryGuarantee.AT_LEAST_ONCE));
        runner.withBean("utf8", org.apache.flink.api.common.serialization.SimpleStringSchema.class)
                .withPropertyValues(
                        "streamsplit.kafka.sources.orders.topics=orders",
                        "streamsplit.kafka.sources.orders.deserializer=text",
                        "streamsplit.kafka.sinks.a.topic=a",
                        "streamsplit.kafka.sinks.a.serializer=utf8",
                        "streamsplit.kafka.sinks.b.topic=b",
                        "streamsplit.kafka.sinks.b.serializer=utf8",
                        "streamsplit.kafka.sinks.b.delivery-guarantee=exactly-once")
                .run(context -> assertThat(
                                context.getBean(KafkaSinkFactory.class).deadLetterGuarantee())
                        .isEqualTo(org.apache.flink.connector.base.DeliveryGuarantee.EXACTLY_ONCE));
    }

    @Configuration(proxyBeanMethods = false)
    static class ServiceConnection {

        @Bean
        KafkaConnectionDetails containerKafka() {
            return () -> List.of("container:1234", "container:1235");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeansConfiguration {

        static final StreamExecutionEnvironment ENV = new StreamExecutionEnvironment();
        static final StreamSplitKafkaSource<String> ORDERS = StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers("mine:1")
                .setTopics("mine")
                .setValueOnlyDeserializer(new org.apache.flink.api.common.serialization.SimpleStringSchema())
                .build();
        static final JobClient CLIENT = new SubmittedJobClient(java.util.concurrent.CompletableFuture::new);

        @Bean
        StreamExecutionEnvironment myEnvironment() {
            return ENV;
        }

        @Bean
        StreamSplitKafkaSource<String> orders() {
            return ORDERS;
        }

        @Bean
        JobClient myJobClient() {
            return CLIENT;
        }
    }
}
