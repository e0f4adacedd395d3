package io.streamsplit.pipeline;

import java.util.Locale;

/**
 * What a {@link Step} does with a record its code still fails on after the retries: every such record is
 * counted and logged; none is dropped without a trace.
 */
public enum ProcessingErrorPolicy {
    /**
     * Fail the task (the default): the job restarts from its last checkpoint and meets the record again. Health
     * goes DOWN naming the step, the record and the exception when it fails so in a loop.
     */
    FAIL,
    /** Count the record as skipped, log it (one line a minute at most) and go on. */
    SKIP,
    /**
     * Write the record as read from Kafka to the step's dead-letter topic, with the exception in spring-kafka's
     * {@code kafka_dlt-*} headers and the step's name, count it and go on; written in the checkpoint's
     * transaction when a sink is exactly-once.
     */
    DEAD_LETTER;

    /** Parses {@code fail}, {@code skip} or {@code dead-letter} (also {@code dead_letter}), ignoring case. */
    public static ProcessingErrorPolicy parse(String value) {
        String normalized =
                value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        return switch (normalized) {
            case "fail" -> FAIL;
            case "skip" -> SKIP;
            case "dead-letter" -> DEAD_LETTER;
            default ->
                throw new IllegalArgumentException(
                        "processing-error policy is '" + value + "'; expected one of fail, skip, dead-letter");
        };
    }

    /** The policy as YAML writes it: {@code fail}, {@code skip}, {@code dead-letter}. */
    public String yaml() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
