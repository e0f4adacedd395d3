package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.pipeline.StreamSplitPipeline;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.sink.TopicSelector;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.mock.env.MockEnvironment;

/**
 * Every bad configuration fails startup, and the report Spring Boot prints (through the failure
 * analyzers registered in spring.factories) names the property, the bad value and the fix.
 */
class StreamSplitFailureAnalysisTest {

    /** These contexts have no Kafka to talk to: the startup check (tested against a real broker elsewhere) is off. */
    private static final String NO_KAFKA_CHECK = "streamsplit.kafka.startup-check.mode=off";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(NO_KAFKA_CHECK)
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
            .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
            .withPropertyValues("streamsplit.kafka.bootstrap-servers=b:1", "streamsplit.kafka.embedded.enabled=false");

    private FailureAnalysis failure(String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = FailureReports.analyze(context.getStartupFailure(), environment(properties));
        });
        assertThat(analysis[0]).as("a failure analyzer explains the failure").isNotNull();
        return analysis[0];
    }

    private FailureAnalysis failureWithSerializer(String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withBean("utf8", SimpleStringSchema.class, SimpleStringSchema::new)
                .withBean("router", TopicSelector.class, () -> (TopicSelector<Object>) element -> "routed")
                .withPropertyValues(properties)
                .run(context ->
                        analysis[0] = FailureReports.analyze(context.getStartupFailure(), environment(properties)));
        return analysis[0];
    }

    /** The environment Boot's reporter would see: the properties as written. */
    private static Environment environment(String... properties) {
        MockEnvironment environment = new MockEnvironment();
        for (String property : properties) {
            int eq = property.indexOf('=');
            environment.setProperty(property.substring(0, eq), property.substring(eq + 1));
        }
        return environment;
    }

    @Test
    void unknownDeserializerBeanNameListsTheBeansThatFit() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.deserializer=orderDeserializer");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.orders.deserializer",
                        "'orderDeserializer'",
                        "no bean named 'orderDeserializer'");
        assertThat(analysis.getAction()).contains("[text]");
    }

    @Test
    void sourceWithoutTopics() {
        FailureAnalysis analysis = failure("streamsplit.kafka.sources.orders.group-id=g");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.topics", "(not set)", "reads no topic");
        assertThat(analysis.getAction()).contains("streamsplit.kafka.sources.orders.pattern");
    }

    @Test
    void sourceWithTopicsAndPattern() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders", "streamsplit.kafka.sources.orders.pattern=orders-.*");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.pattern", "'orders-.*'", "both topics");
        assertThat(analysis.getAction()).contains("Keep one");
    }

    @Test
    void unknownStartingOffsetModeListsTheValidOnes() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.starting-offsets=latests");
        assertThat(analysis.getDescription()).contains("streamsplit.kafka.sources.orders.starting-offsets", "latests");
        assertThat(analysis.getAction()).contains("one of earliest, latest, committed, timestamp");
    }

    @Test
    void timestampStartWithoutTimestamp() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.starting-offsets=timestamp");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.starting-timestamp", "starting-offsets is 'timestamp'");
        assertThat(analysis.getAction()).contains("ISO-8601");
    }

    @Test
    void timestampStartIsReadFromAnIsoInstant() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sources.orders.topics=orders",
                        "streamsplit.kafka.sources.orders.starting-offsets=timestamp",
                        "streamsplit.kafka.sources.orders.starting-timestamp=2026-01-31T00:00:00Z")
                .run(context -> assertThat(context.getBean(
                                        "orders", io.streamsplit.connector.kafka.source.StreamSplitKafkaSource.class)
                                .startingOffsets()
                                .toString())
                        .contains("1769817600000"));
    }

    @Test
    void aNegativeRateLimit() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.max-records-per-second=-5");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.orders.max-records-per-second",
                        "'-5'",
                        "must be 0 (unthrottled) or a positive rate such as 1000");
        assertThat(analysis.getAction()).contains("leave max-records-per-second unset (default 0)");
    }

    @Test
    void negativeDiscoveryInterval() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.discovery-interval=-5s");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.orders.discovery-interval",
                        "'-5s'",
                        "must be 0 (off) or at least 100ms");
        assertThat(analysis.getAction()).contains("leave discovery-interval unset (default 0)");
    }

    @Test
    void aClientRackThatNamesNoEnvironmentVariable() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.client-rack=env:9-zone");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.orders.client-rack", "'env:9-zone'", "not an environment variable");
        assertThat(analysis.getAction()).contains("streamsplit.kafka.sources.orders.client-rack as env:NAME");
    }

    @Test
    void zeroCheckpointInterval() {
        FailureAnalysis analysis = failure("streamsplit.flink.checkpointing.interval=0s");
        assertThat(analysis.getDescription()).contains("streamsplit.flink.checkpointing.interval", "'0s'");
        assertThat(analysis.getAction()).contains("positive duration");
    }

    @Test
    void remoteModeWithoutHost() {
        FailureAnalysis analysis = failure("streamsplit.flink.mode=remote");
        assertThat(analysis.getDescription()).contains("streamsplit.flink.remote.host", "(not set)");
        assertThat(analysis.getAction()).contains("streamsplit.flink.remote.host");
    }

    @Test
    void applicationModeNotStartedByFlink() {
        FailureAnalysis analysis = failure("streamsplit.flink.mode=application");
        assertThat(analysis.getDescription())
                .contains("streamsplit.flink.mode", "'application'", "started by something else (java -jar");
        assertThat(analysis.getAction()).contains("job.jarURI", "bin/standalone-job.sh", "embedded");
    }

    @Test
    void remoteJarThatDoesNotExist() {
        FailureAnalysis analysis = failure(
                "streamsplit.flink.mode=remote",
                "streamsplit.flink.remote.host=jm",
                "streamsplit.flink.remote.jars=target/missing.jar");
        assertThat(analysis.getDescription())
                .contains("streamsplit.flink.remote.jars[0]", "'target/missing.jar'", "no such file");
    }

    @Test
    void deadLetterPolicyWithoutTopic() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.bad-record-policy=dead-letter");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.dead-letter-topic", "(not set)");
        assertThat(analysis.getAction()).contains("orders.DLT");
    }

    @Test
    void deadLetterTopicWithoutDeadLetterPolicy() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.dead-letter-topic=orders.DLT");
        assertThat(analysis.getDescription()).contains("'orders.DLT'", "would never be used");
    }

    @Test
    void committedStartWithoutGroupId() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.starting-offsets=committed");
        assertThat(analysis.getDescription()).contains("streamsplit.kafka.sources.orders.group-id", "'committed'");
    }

    @Test
    void boundedSourceWithDiscovery() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.stopping-offsets=latest",
                "streamsplit.kafka.sources.orders.discovery-interval=10s");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.discovery-interval", "bounded");
    }

    @Test
    void autoCommitInClientProperties() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.properties.enable.auto.commit=true");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.orders.properties.enable.auto.commit",
                        "'true'",
                        "committed when a Flink checkpoint completes");
    }

    @Test
    void secretValuesAreNeverPrinted() {
        InvalidStreamSplitConfigurationException failure = new InvalidStreamSplitConfigurationException(
                "streamsplit.kafka.sources.orders.properties.sasl.jaas.config", "password=\"hunter2\"",
                "a test problem", "a test action");
        assertThat(failure.getMessage()).doesNotContain("hunter2");
        FailureAnalysis analysis = FailureReports.analyze(
                failure,
                environment("streamsplit.kafka.sources.orders.properties.sasl.jaas.config=password=\"hunter2\""));
        assertThat(analysis.getDescription())
                .contains("sasl.jaas.config", "masked")
                .doesNotContain("hunter2");
    }

    @Test
    void notSerializableDeserializerNamesTheBeanAndTheField() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.NotSerializableDeserializer.class)
                .withPropertyValues(
                        "streamsplit.kafka.bootstrap-servers=b:1", "streamsplit.kafka.sources.orders.topics=o")
                .run(context -> analysis[0] = FailureReports.analyze(context.getStartupFailure()));
        assertThat(analysis[0].getDescription())
                .contains(
                        "streamsplit.kafka.sources.orders.deserializer",
                        "bean 'enrichingDeserializer'",
                        "field 'enrichingDeserializer.lookup",
                        "TestDeserializers$Lookup");
        assertThat(analysis[0].getAction()).contains("transient");
    }

    @Test
    void rawLambdaDeserializerWithoutTypeAsksForTheType() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.RawLambdaDeserializer.class)
                .withPropertyValues(
                        "streamsplit.kafka.bootstrap-servers=b:1", "streamsplit.kafka.sources.orders.topics=o")
                .run(context -> analysis[0] = FailureReports.analyze(context.getStartupFailure()));
        assertThat(analysis[0].getDescription()).contains("streamsplit.kafka.sources.orders.type", "bean 'raw'");
        assertThat(analysis[0].getAction()).contains("KafkaRecordDeserializer<Order>");
    }

    @Test
    void twoDeserializersAndNoNameAsksToChoose() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.TwoDeserializers.class)
                .withPropertyValues(
                        "streamsplit.kafka.bootstrap-servers=b:1", "streamsplit.kafka.sources.orders.topics=o")
                .run(context -> analysis[0] = FailureReports.analyze(context.getStartupFailure()));
        assertThat(analysis[0].getAction()).contains("streamsplit.kafka.sources.orders.deserializer", "[text, length]");
    }

    @Test
    void sourceNameTakenByAnotherBean() {
        FailureAnalysis analysis = failure("streamsplit.kafka.sources.text.topics=t");
        assertThat(analysis.getDescription()).contains("streamsplit.kafka.sources.text", "bean 'text' already exists");
        assertThat(analysis.getAction()).contains("Rename");
    }

    @Test
    void twoExactlyOnceSinksWithOneTransactionalIdPrefix() {
        FailureAnalysis analysis = failureWithSerializer(
                "streamsplit.kafka.sinks.a.topic=a",
                "streamsplit.kafka.sinks.a.delivery-guarantee=exactly-once",
                "streamsplit.kafka.sinks.a.serializer=utf8",
                "streamsplit.kafka.sinks.a.transactional-id-prefix=shared",
                "streamsplit.kafka.sinks.b.topic=b",
                "streamsplit.kafka.sinks.b.delivery-guarantee=exactly-once",
                "streamsplit.kafka.sinks.b.serializer=utf8",
                "streamsplit.kafka.sinks.b.transactional-id-prefix=shared");
        assertThat(analysis.getDescription())
                .contains("transactional-id-prefix", "'shared'", "also used by streamsplit.kafka.sinks.");
        assertThat(analysis.getAction()).contains("its own transactional-id-prefix");
    }

    /** A sink writing into a topic a source reads feeds the job its own output, a loop that runs silently. */
    @Test
    void aSinkWritingIntoATopicASourceReadsIsRefusedUnlessTheLoopIsMeant() {
        FailureAnalysis analysis = failureWithSerializer(
                "streamsplit.kafka.sources.orders.topics=orders",
                "streamsplit.kafka.sources.orders.deserializer=text",
                "streamsplit.kafka.sinks.out.topic=orders",
                "streamsplit.kafka.sinks.out.serializer=utf8");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sinks.out.topic", "'orders'", "source 'orders' reads", "loop");
        assertThat(analysis.getAction()).contains("streamsplit.kafka.sinks.out.allow-feedback-loop=true");

        FailureAnalysis pattern = failureWithSerializer(
                "streamsplit.kafka.sources.all.pattern=orders-.*",
                "streamsplit.kafka.sources.all.deserializer=text",
                "streamsplit.kafka.sinks.out.topic=orders-retry",
                "streamsplit.kafka.sinks.out.serializer=utf8");
        assertThat(pattern.getDescription()).contains("'orders-retry'", "pattern orders-.*");
    }

    @Test
    void sinkWithTopicAndTopicSelector() {
        FailureAnalysis analysis = failureWithSerializer(
                "streamsplit.kafka.sinks.out.topic=out",
                "streamsplit.kafka.sinks.out.topic-selector=router",
                "streamsplit.kafka.sinks.out.serializer=utf8");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sinks.out.topic", "'out'", "topic selector ('router')");
    }

    @Test
    void exactlyOnceSinkWithoutCheckpointing() {
        FailureAnalysis analysis = failureWithSerializer(
                "streamsplit.kafka.sinks.out.topic=out",
                "streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once",
                "streamsplit.kafka.sinks.out.transactional-id-prefix=app",
                "streamsplit.flink.checkpointing.enabled=false",
                "streamsplit.kafka.sinks.out.serializer=utf8");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sinks.out.delivery-guarantee", "checkpointing is off");
    }

    @Test
    void exactlyOnceTransactionTimeoutShorterThanTheCheckpointInterval() {
        FailureAnalysis analysis = failureWithSerializer(
                "streamsplit.kafka.sinks.out.topic=out",
                "streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once",
                "streamsplit.kafka.sinks.out.serializer=utf8",
                "streamsplit.kafka.sinks.out.transactional-id-prefix=app",
                "streamsplit.flink.checkpointing.interval=1m",
                "streamsplit.kafka.sinks.out.properties.transaction.timeout.ms=30000");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sinks.out.properties.transaction.timeout.ms",
                        "'30000'",
                        "checkpoint interval (PT1M)");
        // interval 1 min + the longest restart wait (exponential-delay's max-delay, 1 min) + 1 min margin = 180 s;
        // twice that is suggested
        assertThat(analysis.getAction()).contains("transaction.timeout.ms=360000", "at least 180000", "900000");
    }

    @Test
    void shutdownSavepointWithoutDirectory() {
        FailureAnalysis analysis = failure("streamsplit.flink.shutdown.savepoint=true");
        assertThat(analysis.getDescription()).contains("streamsplit.flink.shutdown.savepoint-directory");
    }

    @Test
    void noKafkaAnywhereAndNoDevBroker() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
                .withPropertyValues(
                        "streamsplit.kafka.embedded.enabled=false", "streamsplit.kafka.sources.orders.topics=o")
                .run(context -> analysis[0] = FailureReports.analyze(context.getStartupFailure()));
        assertThat(analysis[0].getDescription())
                .contains("streamsplit.kafka.sources.orders.bootstrap-servers", "no Kafka cluster");
        assertThat(analysis[0].getAction())
                .contains("streamsplit.kafka.bootstrap-servers", "streamsplit.kafka.embedded.enabled=false");
    }

    /**
     * A packaged run (java -jar) with streamsplit-embedded-kafka on the class path and the bootstrap setting
     * missing runs on no in-JVM broker whose data is deleted at shutdown: startup is refused, naming the key.
     */
    @Test
    void aPackagedRunWithoutBootstrapServersIsRefusedNotRunOnTheDevBroker() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withPropertyValues(NO_KAFKA_CHECK)
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
                .withBean(
                        io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker.class,
                        () -> new io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker(
                                new io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties(), false))
                .withPropertyValues("streamsplit.kafka.sources.orders.topics=o")
                .run(context -> analysis[0] = FailureReports.analyze(context.getStartupFailure()));
        assertThat(analysis[0].getDescription()).contains("no Kafka cluster", "packaged (java -jar)");
        assertThat(analysis[0].getAction())
                .contains("streamsplit.kafka.bootstrap-servers", "streamsplit.kafka.embedded.enabled=true");
    }

    @Test
    void pipelineThatThrowsIsNamed() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withUserConfiguration(BrokenPipeline.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .hasStackTraceContaining("StreamSplitPipeline bean 'broken'")
                    .hasStackTraceContaining("no source named 'missing'");
            analysis[0] = FailureReports.analyze(context.getStartupFailure());
        });
        assertThat(analysis[0].getDescription()).contains("streamsplit.kafka.sources", "'missing'");
    }

    @Configuration(proxyBeanMethods = false)
    static class BrokenPipeline {

        @Bean
        StreamSplitPipeline broken() {
            return pipeline -> pipeline.source("missing");
        }
    }
}
