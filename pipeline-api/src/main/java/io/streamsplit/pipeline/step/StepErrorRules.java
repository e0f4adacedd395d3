package io.streamsplit.pipeline.step;

import io.streamsplit.pipeline.ProcessingErrorPolicy;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How a step treats a record its code fails on: how often it is retried and how long each retry waits, which
 * exceptions are not retried, and the policy afterwards. The rules are checked here, once: the starter maps its
 * properties onto {@link Builder} and reports an {@link InvalidStepErrorsException} under the property's path.
 *
 * <pre>{@code
 * StepErrorRules rules = StepErrorRules.builder()
 *         .retries(3)
 *         .backOff(Duration.ofMillis(100))
 *         .policy(ProcessingErrorPolicy.DEAD_LETTER)
 *         .deadLetterTopic("orders.DLT")
 *         .build();
 * }</pre>
 */
public final class StepErrorRules implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The default number of retries: three attempts in all. */
    public static final int DEFAULT_RETRIES = 2;
    /** The default wait before the first retry. */
    public static final Duration DEFAULT_BACK_OFF = Duration.ofMillis(100);
    /** The default growth of the wait from one retry to the next. */
    public static final double DEFAULT_MULTIPLIER = 2.0;
    /** The default longest wait. */
    public static final Duration DEFAULT_MAX_BACK_OFF = Duration.ofSeconds(2);
    /** The longest wait a step may have: a waiting record holds back its partition and the checkpoints. */
    public static final Duration MAX_BACK_OFF_LIMIT = Duration.ofMinutes(1);

    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private final int retries;
    private final long backOffMillis;
    private final double multiplier;
    private final long maxBackOffMillis;
    private final ProcessingErrorPolicy policy;
    private final @Nullable String deadLetterTopic;
    private final List<String> notRetryable;

    private StepErrorRules(Builder b) {
        this.retries = b.retries;
        this.backOffMillis = b.backOff.toMillis();
        this.multiplier = b.multiplier;
        this.maxBackOffMillis = b.maxBackOff.toMillis();
        this.policy = b.policy;
        this.deadLetterTopic = b.deadLetterTopic;
        this.notRetryable = List.copyOf(b.notRetryable);
    }

    /** A builder with the defaults: 2 retries, 100 ms back-off doubling up to 2 s, policy fail. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from these rules. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.retries = retries;
        b.backOff = Duration.ofMillis(backOffMillis);
        b.multiplier = multiplier;
        b.maxBackOff = Duration.ofMillis(maxBackOffMillis);
        b.policy = policy;
        b.deadLetterTopic = deadLetterTopic;
        b.notRetryable.addAll(notRetryable);
        return b;
    }

    public int retries() {
        return retries;
    }

    public ProcessingErrorPolicy policy() {
        return policy;
    }

    public @Nullable String deadLetterTopic() {
        return deadLetterTopic;
    }

    /** The class names of the exceptions that are not retried. */
    public List<String> notRetryable() {
        return notRetryable;
    }

    /** The wait before retry {@code retry} (1: the first), in milliseconds. */
    public long backOffMillis(int retry) {
        double wait = backOffMillis * Math.pow(multiplier, Math.max(0, retry - 1));
        return (long) Math.min(wait, maxBackOffMillis);
    }

    @Override
    public String toString() {
        return "retries " + retries + ", back-off " + backOffMillis + " ms ×" + multiplier + " up to "
                + maxBackOffMillis + " ms, policy " + policy.yaml()
                + (deadLetterTopic == null ? "" : " to " + deadLetterTopic)
                + (notRetryable.isEmpty() ? "" : ", not retried: " + notRetryable);
    }

    /** Sets the rules; {@link #build()} checks them. */
    public static final class Builder {
        private int retries = DEFAULT_RETRIES;
        private Duration backOff = DEFAULT_BACK_OFF;
        private double multiplier = DEFAULT_MULTIPLIER;
        private Duration maxBackOff = DEFAULT_MAX_BACK_OFF;
        private ProcessingErrorPolicy policy = ProcessingErrorPolicy.FAIL;
        private @Nullable String deadLetterTopic;
        private final List<String> notRetryable = new ArrayList<>();

        private Builder() {}

        public Builder retries(int retries) {
            if (retries < 0) {
                throw new InvalidStepErrorsException(
                        "retries", retries, "a record is tried again 0 or more times", "Set 0 (no retry) or more.");
            }
            this.retries = retries;
            return this;
        }

        public Builder backOff(Duration backOff) {
            this.backOff = duration("back-off", backOff);
            return this;
        }

        public Builder backOffMultiplier(double multiplier) {
            if (!(multiplier >= 1.0) || multiplier > 10) {
                throw new InvalidStepErrorsException(
                        "back-off-multiplier",
                        multiplier,
                        "each retry waits this many times as long as the one before, so it is 1 to 10",
                        "Set 1 (the same wait each time) or e.g. 2.");
            }
            this.multiplier = multiplier;
            return this;
        }

        public Builder maxBackOff(Duration maxBackOff) {
            this.maxBackOff = duration("max-back-off", maxBackOff);
            return this;
        }

        public Builder policy(ProcessingErrorPolicy policy) {
            this.policy = policy;
            return this;
        }

        public Builder deadLetterTopic(@Nullable String topic) {
            if (topic != null && !TOPIC.matcher(topic).matches()) {
                throw new InvalidStepErrorsException(
                        "dead-letter-topic",
                        topic,
                        "not a Kafka topic name (letters, digits, '.', '_' and '-', at most 249)",
                        "Name a topic such as orders.DLT.");
            }
            this.deadLetterTopic = topic;
            return this;
        }

        /** Exceptions not retried, by class: checked against the exception and each of its causes. */
        public Builder notRetryable(List<String> classNames) {
            for (String name : classNames) {
                if (!notRetryable.contains(name)) {
                    notRetryable.add(name);
                }
            }
            return this;
        }

        public StepErrorRules build() {
            if (maxBackOff.compareTo(backOff) < 0) {
                throw new InvalidStepErrorsException(
                        "max-back-off",
                        maxBackOff,
                        "shorter than the back-off (" + backOff + ") it caps",
                        "Set it to the back-off or longer.");
            }
            if (policy == ProcessingErrorPolicy.DEAD_LETTER && deadLetterTopic == null) {
                throw new InvalidStepErrorsException(
                        "dead-letter-topic",
                        "(not set)",
                        "the policy is dead-letter, so the step needs a topic to write its dead letters to",
                        "Set dead-letter-topic (e.g. orders.DLT), or choose the policy fail or skip.");
            }
            return new StepErrorRules(this);
        }

        private static Duration duration(String setting, Duration value) {
            if (value.isNegative() || value.compareTo(MAX_BACK_OFF_LIMIT) > 0) {
                throw new InvalidStepErrorsException(
                        setting,
                        value,
                        "a retry waits 0 to " + MAX_BACK_OFF_LIMIT.toSeconds() + " s: while it waits, the record holds"
                                + " back its partition and the job's checkpoints",
                        "Set e.g. 100ms; for longer outages let the policy dead-letter the record and replay it"
                                + " later.");
            }
            return value;
        }
    }
}
