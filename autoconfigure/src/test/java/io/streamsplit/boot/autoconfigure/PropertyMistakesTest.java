package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

/**
 * A key that is no property, and a value that does not convert, fail startup with StreamSplit's
 * report: the property, the value as written, and the nearest key or the expected form.
 */
@ExtendWith(OutputCaptureExtension.class)
class PropertyMistakesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
            .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
            .withPropertyValues(
                    "streamsplit.kafka.bootstrap-servers=b:1",
                    "streamsplit.kafka.embedded.enabled=false",
                    "streamsplit.kafka.startup-check.mode=off",
                    "streamsplit.kafka.sources.orders.topics=orders");

    private FailureAnalysis failure(String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            MockEnvironment written = new MockEnvironment();
            for (String property : properties) {
                written.setProperty(
                        property.substring(0, property.indexOf('=')), property.substring(property.indexOf('=') + 1));
            }
            analysis[0] = FailureReports.analyze(context.getStartupFailure(), written);
        });
        assertThat(analysis[0]).as("a failure analyzer explains the failure").isNotNull();
        return analysis[0];
    }

    @Test
    void aKafkaSettingUnderASourceIsPointedToItsPropertiesMap() {
        FailureAnalysis analysis = failure("streamsplit.kafka.sources.orders.fetch-max-bytes=500");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.fetch-max-bytes", "'500'", "no such StreamSplit property");
        assertThat(analysis.getAction())
                .contains("Did you mean streamsplit.kafka.sources.orders.properties.fetch.max.bytes?");
    }

    @Test
    void aDeclaredSettingOfTheConnectorIsASourceKeyAndAMisspellingOfItGetsItsName() {
        FailureAnalysis analysis = failure("streamsplit.kafka.sources.orders.max-pol-records=500");
        assertThat(analysis.getAction()).contains("Did you mean streamsplit.kafka.sources.orders.max-poll-records?");
    }

    @Test
    void aMisspelledKeyGetsTheNearestRealOne() {
        FailureAnalysis analysis = failure("streamsplit.flink.paralellism=2");
        assertThat(analysis.getDescription()).contains("streamsplit.flink.paralellism", "'2'");
        assertThat(analysis.getAction()).contains("Did you mean streamsplit.flink.parallelism?");
        assertThat(failure("streamsplit.kafka.sinks.totals.topik=t").getAction())
                .contains("Did you mean streamsplit.kafka.sinks.totals.topic?");
        assertThat(failure("streamsplit.kafka.sources.orders.watermarks.idle=5s")
                        .getAction())
                .contains("streamsplit.kafka.sources.orders.watermarks.idle-timeout");
    }

    @Test
    void aDurationWithoutUnitThatCannotBeMeantIsRefused() {
        FailureAnalysis interval = failure("streamsplit.flink.checkpointing.interval=10");
        assertThat(interval.getDescription())
                .contains(
                        "streamsplit.flink.checkpointing.interval",
                        "'10'",
                        "10 ms (a number without a unit is milliseconds)");
        assertThat(interval.getAction()).isEqualTo("Write the duration with its unit, e.g. 10s.");
        assertThat(failure("streamsplit.kafka.sources.orders.watermarks.idle-timeout=5")
                        .getDescription())
                .contains("streamsplit.kafka.sources.orders.watermarks.idle-timeout", "'5'");
        FailureAnalysis discovery = failure("streamsplit.kafka.sources.orders.discovery-interval=30");
        assertThat(discovery.getDescription())
                .as("a declared interval brings its floor (SourceOptions.DISCOVERY_INTERVAL)")
                .contains(
                        "streamsplit.kafka.sources.orders.discovery-interval",
                        "'30'",
                        "30 ms (a number without a unit is milliseconds), below the 100 ms");
        assertThat(discovery.getAction()).isEqualTo("Write the duration with its unit, e.g. 30s.");
    }

    @Test
    void aDurationWithoutUnitThatCanBeMeantStartsWithAWarning(CapturedOutput output) {
        runner.withPropertyValues("streamsplit.flink.checkpointing.interval=500")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getOut())
                .contains("streamsplit.flink.checkpointing.interval is '500', read as 500 ms: a number without a unit"
                        + " is milliseconds. Write 500ms, or the unit you meant (e.g. 10s).");
    }

    @Test
    void aValueThatIsNotOneOfTheKindsNamesTheKinds() {
        FailureAnalysis analysis = failure("streamsplit.kafka.sources.orders.stopping-offsets=none");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.stopping-offsets", "'none'")
                .doesNotContain("No enum constant", "io.streamsplit");
        assertThat(analysis.getAction())
                .isEqualTo(
                        "Set streamsplit.kafka.sources.orders.stopping-offsets to one of latest, timestamp, specific,"
                                + " or remove it: unset means unbounded.");
    }

    @Test
    void anUnknownProcessingErrorPolicyNamesThePolicies() {
        FailureAnalysis analysis = failure("streamsplit.processing-errors.steps.price.policy=drop");
        assertThat(analysis.getDescription()).contains("streamsplit.processing-errors.steps.price.policy", "'drop'");
        assertThat(analysis.getAction()).contains("fail", "skip", "dead-letter");
        FailureAnalysis retries = failure("streamsplit.processing-errors.retries=-1");
        assertThat(retries.getDescription()).contains("streamsplit.processing-errors.retries", "-1", "0 or more");
        FailureAnalysis backOff = failure("streamsplit.processing-errors.back-off=100");
        assertThat(backOff.getDescription())
                .contains("streamsplit.processing-errors.back-off", "100", "a duration without a unit");
    }

    @Test
    void aListWhereOneValueIsExpectedSaysSo() {
        FailureAnalysis analysis = failure(
                "streamsplit.kafka.sources.orders.group-id[0]=a", "streamsplit.kafka.sources.orders.group-id[1]=b");
        assertThat(analysis.getDescription())
                .contains("streamsplit.kafka.sources.orders.group-id", "[a, b]", "a list where one value is expected")
                .doesNotContain("no such StreamSplit property");
        assertThat(analysis.getAction()).isEqualTo("Write one value, e.g. group-id: a.");
    }

    @Test
    void theMapsOfClientAndFlinkSettingsTakeAnyKeyAndListsTheirIndexes() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sources.orders.properties.max.poll.records=500",
                        "streamsplit.flink.configuration.pipeline.object-reuse=true",
                        "streamsplit.kafka.sources.returns.topics[0]=returns",
                        "streamsplit.kafka.sources.returns.topics[1]=refunds")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StreamSplitProperties bound = context.getBean(StreamSplitProperties.class);
                    assertThat(bound.getKafka().getSources().get("orders").getProperties())
                            .containsEntry("max.poll.records", "500");
                    assertThat(bound.getKafka().getSources().get("returns").getTopics())
                            .containsExactly("returns", "refunds");
                    assertThat(bound.getFlink().getConfiguration()).containsEntry("pipeline.object-reuse", "true");
                });
    }

    @Test
    void aValueThatDoesNotConvertSaysWhatIsExpected() {
        FailureAnalysis parallelism = failure("streamsplit.flink.parallelism=two");
        assertThat(parallelism.getDescription())
                .contains("streamsplit.flink.parallelism", "'two'", "not a whole number");
        assertThat(parallelism.getAction()).contains("a whole number, e.g. 2");
        FailureAnalysis size = failure("streamsplit.flink.embedded.managed-memory=64 megs");
        assertThat(size.getDescription()).contains("'64 megs'", "not a size such as 64MB");
        FailureAnalysis interval = failure("streamsplit.flink.checkpointing.interval=10 sec");
        assertThat(interval.getAction()).contains("a duration such as 10s, 500ms");
        assertThat(failure("streamsplit.kafka.sources.orders.bad-record-policy=drop")
                        .getAction())
                .contains("one of fail, skip, dead-letter", "dead-letter");
    }
}
