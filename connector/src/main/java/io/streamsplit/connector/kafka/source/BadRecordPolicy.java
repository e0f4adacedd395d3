package io.streamsplit.connector.kafka.source;

import java.util.Locale;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What a source does with a record its deserializer or emitter cannot handle. Every bad record
 * is logged with its topic, partition and offset; none is dropped silently.
 */
@PublicEvolving
public enum BadRecordPolicy {
    /** Fail the job with an error naming the record (the default). */
    FAIL,
    /** Count the record in the {@code numRecordsSkipped} metric, log it, and go on. */
    SKIP,
    /**
     * Emit the raw record plus error headers as a {@link DeadLetterRecord} on the dead-letter
     * stream of {@link KafkaSourceStream}, count it in {@code numRecordsDeadLettered}, and go on.
     */
    DEAD_LETTER;

    /** Parses {@code fail}, {@code skip} or {@code dead-letter} (also {@code dead_letter}), ignoring case. */
    public static BadRecordPolicy parse(String value) {
        String normalized =
                value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        switch (normalized) {
            case "fail":
                return FAIL;
            case "skip":
                return SKIP;
            case "dead-letter":
                return DEAD_LETTER;
            default:
                throw new IllegalArgumentException(
                        "Bad-record policy is '" + value + "'; expected one of fail, skip, dead-letter");
        }
    }
}
