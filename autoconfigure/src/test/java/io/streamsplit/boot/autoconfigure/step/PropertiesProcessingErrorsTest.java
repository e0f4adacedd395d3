package io.streamsplit.boot.autoconfigure.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.step.ProcessingErrors.FromCode;
import io.streamsplit.pipeline.ProcessingErrorPolicy;
import io.streamsplit.pipeline.step.StepErrorRules;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/**
 * {@code streamsplit.processing-errors} onto a step's rules: the step's YAML over its code over the defaults, and
 * each bad value refused naming where it was written.
 */
class PropertiesProcessingErrorsTest {

    private static final FromCode NOTHING = new FromCode(null, null, null, null, List.of());

    private final ProcessingErrorsProperties properties = new ProcessingErrorsProperties();
    private final MockEnvironment environment = new MockEnvironment();
    private final List<String> checked = new java.util.ArrayList<>();

    private PropertiesProcessingErrors errors() {
        return new PropertiesProcessingErrors(
                properties,
                environment,
                getClass().getClassLoader(),
                (step, origin, topic) -> checked.add(origin + "=" + topic));
    }

    private ProcessingErrorsProperties.StepProperties step(String name) {
        return properties.getSteps().computeIfAbsent(name, n -> new ProcessingErrorsProperties.StepProperties());
    }

    @Test
    void theDefaultsAreTwoRetriesThenFail() {
        StepErrorRules rules = errors().rules("parse", NOTHING);
        assertThat(rules.retries()).isEqualTo(2);
        assertThat(rules.policy()).isEqualTo(ProcessingErrorPolicy.FAIL);
        assertThat(rules.backOffMillis(1)).isEqualTo(100);
        assertThat(rules.backOffMillis(2)).isEqualTo(200);
        assertThat(rules.backOffMillis(10)).as("capped by max-back-off").isEqualTo(2_000);
    }

    @Test
    void aStepsYamlWinsOverItsCodeWhichWinsOverTheDefaults() {
        properties.setRetries(7);
        properties.setDeadLetterTopic("all.DLT");
        step("parse").setRetries(1);
        FromCode code = new FromCode(4, Duration.ofMillis(5), ProcessingErrorPolicy.DEAD_LETTER, null, List.of());
        StepErrorRules rules = errors().rules("parse", code);
        assertThat(rules.retries()).as("YAML over code").isEqualTo(1);
        assertThat(rules.backOffMillis(1)).as("code over the defaults").isEqualTo(5);
        assertThat(rules.policy()).isEqualTo(ProcessingErrorPolicy.DEAD_LETTER);
        assertThat(rules.deadLetterTopic()).as("the default topic").isEqualTo("all.DLT");
        assertThat(errors().rules("other", NOTHING).retries()).isEqualTo(7);
        assertThat(checked)
                .as("YAML's topics are checked at start-up with the others")
                .isEmpty();
    }

    @Test
    void aDeadLetterTopicOnlyTheCodeNamesIsCheckedWhenTheStepIsBuilt() {
        FromCode code = new FromCode(null, null, ProcessingErrorPolicy.DEAD_LETTER, "price.DLT", List.of());
        errors().rules("price", code);
        assertThat(checked).containsExactly("pipeline.step(\"price\").deadLetterTopic(...)=price.DLT");
    }

    @Test
    void aNegativeRetryCountIsRefusedNamingTheStepsKey() {
        step("parse").setRetries(-1);
        assertThatThrownBy(() -> errors().rules("parse", NOTHING))
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.processing-errors.steps.parse.retries = -1")
                .hasMessageContaining("0 or more");
    }

    @Test
    void aNegativeRetryCountInCodeIsRefusedNamingTheCall() {
        assertThatThrownBy(() -> errors().rules("parse", new FromCode(-2, null, null, null, List.of())))
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("pipeline.step(\"parse\").retries(...) = -2");
    }

    @Test
    void aBackOffWithoutAUnitIsRefused() {
        environment.setProperty("streamsplit.processing-errors.steps.parse.back-off", "100");
        step("parse").setBackOff(Duration.ofMillis(100));
        assertThatThrownBy(() -> errors().checkDefaults())
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.processing-errors.steps.parse.back-off = 100")
                .hasMessageContaining("without a unit")
                .hasMessageContaining("100ms");
    }

    @Test
    void theDeadLetterPolicyWithoutATopicIsRefusedNamingTheTopicsKey() {
        step("parse").setPolicy(ProcessingErrorPolicy.DEAD_LETTER);
        assertThatThrownBy(() -> errors().rules("parse", NOTHING))
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.processing-errors.steps.parse.dead-letter-topic")
                .hasMessageContaining("the policy is dead-letter");
    }

    @Test
    void anExceptionClassThatDoesNotExistIsRefused() {
        properties.setNotRetryable(List.of("com.example.NoSuchException"));
        assertThatThrownBy(() -> errors().checkDefaults())
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.processing-errors.not-retryable = com.example.NoSuchException")
                .hasMessageContaining("no such class");
        properties.setNotRetryable(List.of("java.lang.String"));
        assertThatThrownBy(() -> errors().checkDefaults()).hasMessageContaining("not an exception class");
    }

    @Test
    void aBackOffLongerThanAMinuteIsRefused() {
        properties.setMaxBackOff(Duration.ofMinutes(5));
        assertThatThrownBy(() -> errors().checkDefaults())
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.processing-errors.max-back-off = PT5M")
                .hasMessageContaining("holds back its partition");
    }
}
