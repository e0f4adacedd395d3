package io.streamsplit.connector.kafka.source;

import java.util.Locale;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What to do when a stored offset cannot be used: a consumer group has no committed offset (for
 * {@link StartingOffsets#committed(OffsetResetStrategy)}), or an offset restored from a checkpoint
 * or commit is no longer in the log because retention deleted it.
 *
 * <p>This is deliberately separate from {@link StartingOffsets}: "where does a new job start" and
 * "what happens when an offset is gone" are different questions.
 */
@PublicEvolving
public enum OffsetResetStrategy {
    /** Continue from the earliest offset still in the log (records in between are lost to retention). */
    EARLIEST,
    /** Continue from the end of the log, skipping everything currently stored. */
    LATEST,
    /** Fail the job with an error naming the partition and the offset. */
    FAIL;

    /** The Kafka consumer's {@code auto.offset.reset} value for this strategy. */
    public String consumerValue() {
        return this == FAIL ? "none" : name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code earliest}, {@code latest}, {@code fail} or Kafka's {@code none}, ignoring case. */
    public static OffsetResetStrategy parse(String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        switch (normalized) {
            case "earliest":
                return EARLIEST;
            case "latest":
                return LATEST;
            case "fail":
            case "none":
                return FAIL;
            default:
                throw new IllegalArgumentException("Offset reset strategy is '" + value
                        + "'; expected one of earliest, latest, fail (Kafka's 'none')");
        }
    }
}
