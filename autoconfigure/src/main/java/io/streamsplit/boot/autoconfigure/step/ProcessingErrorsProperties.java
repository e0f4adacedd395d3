package io.streamsplit.boot.autoconfigure.step;

import io.streamsplit.pipeline.ProcessingErrorPolicy;
import io.streamsplit.pipeline.step.StepErrorRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code streamsplit.processing-errors}: what a step ({@code pipeline.step(name)}) does with a record its code
 * throws for — the defaults of every step, and {@code steps.<name>} for one step (over what its code sets).
 *
 * <pre>
 * streamsplit:
 *   processing-errors:
 *     retries: 2                 # then the policy
 *     back-off: 100ms            # doubling up to max-back-off
 *     policy: fail               # fail | skip | dead-letter
 *     steps:
 *       price:
 *         policy: dead-letter
 *         dead-letter-topic: orders.price.DLT
 *         not-retryable: java.lang.IllegalArgumentException
 * </pre>
 */
public class ProcessingErrorsProperties {

    /** How often a failed record is tried again before the policy applies; 0: never. */
    private int retries = StepErrorRules.DEFAULT_RETRIES;

    /** The wait before the first retry (with a unit: 100ms). */
    private Duration backOff = StepErrorRules.DEFAULT_BACK_OFF;

    /** How many times longer each retry waits than the one before. */
    private double backOffMultiplier = StepErrorRules.DEFAULT_MULTIPLIER;

    /** The longest wait between two tries (at most 1m: a waiting record holds back its partition). */
    private Duration maxBackOff = StepErrorRules.DEFAULT_MAX_BACK_OFF;

    /**
     * What happens to a record that still fails: fail (the task fails, the job restarts from its last checkpoint,
     * health goes DOWN when it loops), skip (counted), dead-letter (to the dead-letter topic, counted).
     */
    private ProcessingErrorPolicy policy = ProcessingErrorPolicy.FAIL;

    /** The topic dead letters go to when a step's own is not set. */
    private @Nullable String deadLetterTopic;

    /** Exceptions (class names) no retry can cure: the policy applies at once; checked against the causes too. */
    private List<String> notRetryable = new ArrayList<>();

    /** Per step, by the name given to pipeline.step(name): what differs from the defaults above. */
    private Map<String, StepProperties> steps = new LinkedHashMap<>();

    public int getRetries() {
        return retries;
    }

    public void setRetries(int retries) {
        this.retries = retries;
    }

    public Duration getBackOff() {
        return backOff;
    }

    public void setBackOff(Duration backOff) {
        this.backOff = backOff;
    }

    public double getBackOffMultiplier() {
        return backOffMultiplier;
    }

    public void setBackOffMultiplier(double backOffMultiplier) {
        this.backOffMultiplier = backOffMultiplier;
    }

    public Duration getMaxBackOff() {
        return maxBackOff;
    }

    public void setMaxBackOff(Duration maxBackOff) {
        this.maxBackOff = maxBackOff;
    }

    public ProcessingErrorPolicy getPolicy() {
        return policy;
    }

    public void setPolicy(ProcessingErrorPolicy policy) {
        this.policy = policy;
    }

    public @Nullable String getDeadLetterTopic() {
        return deadLetterTopic;
    }

    public void setDeadLetterTopic(@Nullable String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    public List<String> getNotRetryable() {
        return notRetryable;
    }

    public void setNotRetryable(List<String> notRetryable) {
        this.notRetryable = notRetryable;
    }

    public Map<String, StepProperties> getSteps() {
        return steps;
    }

    public void setSteps(Map<String, StepProperties> steps) {
        this.steps = steps;
    }

    /** One step's settings; unset ones come from the step's code, then from the defaults. */
    public static class StepProperties {

        /** How often a failed record is tried again before the policy applies. */
        private @Nullable Integer retries;

        /** The wait before the first retry (with a unit: 100ms). */
        private @Nullable Duration backOff;

        /** How many times longer each retry waits than the one before. */
        private @Nullable Double backOffMultiplier;

        /** The longest wait between two tries. */
        private @Nullable Duration maxBackOff;

        /** fail, skip or dead-letter. */
        private @Nullable ProcessingErrorPolicy policy;

        /** The topic this step's dead letters go to. */
        private @Nullable String deadLetterTopic;

        /** Exceptions (class names) not retried, in addition to the defaults' and the code's. */
        private List<String> notRetryable = new ArrayList<>();

        public @Nullable Integer getRetries() {
            return retries;
        }

        public void setRetries(@Nullable Integer retries) {
            this.retries = retries;
        }

        public @Nullable Duration getBackOff() {
            return backOff;
        }

        public void setBackOff(@Nullable Duration backOff) {
            this.backOff = backOff;
        }

        public @Nullable Double getBackOffMultiplier() {
            return backOffMultiplier;
        }

        public void setBackOffMultiplier(@Nullable Double backOffMultiplier) {
            this.backOffMultiplier = backOffMultiplier;
        }

        public @Nullable Duration getMaxBackOff() {
            return maxBackOff;
        }

        public void setMaxBackOff(@Nullable Duration maxBackOff) {
            this.maxBackOff = maxBackOff;
        }

        public @Nullable ProcessingErrorPolicy getPolicy() {
            return policy;
        }

        public void setPolicy(@Nullable ProcessingErrorPolicy policy) {
            this.policy = policy;
        }

        public @Nullable String getDeadLetterTopic() {
            return deadLetterTopic;
        }

        public void setDeadLetterTopic(@Nullable String deadLetterTopic) {
            this.deadLetterTopic = deadLetterTopic;
        }

        public List<String> getNotRetryable() {
            return notRetryable;
        }

        public void setNotRetryable(List<String> notRetryable) {
            this.notRetryable = notRetryable;
        }
    }
}
