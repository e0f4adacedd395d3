package io.streamsplit.boot.job.step;

import io.streamsplit.pipeline.step.StepErrorRules;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The steps the pipelines built ({@code pipeline.step(name)}), in the order they were built, with their rules:
 * what the endpoints, meters and the dead-letter replay list.
 */
public final class JobSteps {

    private volatile Map<String, StepErrorRules> steps = Map.of();

    /** Records the steps a build added, by name. */
    public void record(Map<String, StepErrorRules> built) {
        steps = Collections.unmodifiableMap(new LinkedHashMap<>(built));
    }

    /** The steps of the graph built last, by name. */
    public Map<String, StepErrorRules> all() {
        return steps;
    }

    /** The dead-letter topic of each step that dead-letters, by step name. */
    public Map<String, String> deadLetterTopics() {
        Map<String, String> topics = new LinkedHashMap<>();
        steps.forEach((name, rules) -> {
            if (rules.policy() == io.streamsplit.pipeline.ProcessingErrorPolicy.DEAD_LETTER
                    && rules.deadLetterTopic() != null) {
                topics.put(name, rules.deadLetterTopic());
            }
        });
        return topics;
    }
}
