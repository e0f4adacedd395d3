package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.step.ProcessingErrors;
import io.streamsplit.pipeline.step.StepErrorRules;
import java.util.List;
import java.util.Set;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** A step's name is one step: used twice, or configured in YAML and never built, it is refused naming the key. */
class DefaultPipelineContextStepsTest {

    private final StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();

    private DefaultPipelineContext context(Set<String> configured) {
        ProcessingErrors errors = new ProcessingErrors() {
            @Override
            public StepErrorRules rules(String step, FromCode code) {
                return StepErrorRules.builder().build();
            }

            @Override
            public Set<String> configuredSteps() {
                return configured;
            }
        };
        return new DefaultPipelineContext(environment, null, null, null, errors);
    }

    @Test
    void aStepNameUsedTwiceIsRefused() {
        DefaultPipelineContext context = context(Set.of());
        context.step("parse");
        assertThatThrownBy(() -> context.step("parse"))
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.processing-errors.steps.parse = parse")
                .hasMessageContaining("two steps of the pipelines are named 'parse'");
    }

    @Test
    void aStepConfiguredInYamlThatNoPipelineBuildsIsRefusedWithTheNearestName() {
        DefaultPipelineContext context = context(Set.of("prase"));
        DataStream<String> words = environment.fromData(List.of("a", "b"));
        context.step("parse").map(words, String::toUpperCase).print();
        assertThatThrownBy(context::checkConfiguredSteps)
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.processing-errors.steps.prase")
                .hasMessageContaining("no pipeline builds a step named 'prase'")
                .hasMessageContaining("Did you mean [parse]?");
        assertThat(context.builtSteps()).containsOnlyKeys("parse");
    }

    @Test
    void aStepAddsOneOperatorNamedAfterIt() {
        DefaultPipelineContext context = context(Set.of());
        DataStream<String> words = environment.fromData(List.of("a", "b"));
        var step = context.step("upper");
        assertThat(step.map(words, String::toUpperCase).getName()).isEqualTo("upper");
        assertThatThrownBy(() -> step.filter(words, w -> true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a step is one operator");
    }
}
