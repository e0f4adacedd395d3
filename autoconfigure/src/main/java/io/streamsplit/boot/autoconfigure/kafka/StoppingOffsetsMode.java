package io.streamsplit.boot.autoconfigure.kafka;

/** {@code streamsplit.kafka.sources.<name>.stopping-offsets}: where a bounded source stops; {@code none}: unbounded. */
public enum StoppingOffsetsMode {
    /** Unbounded: read until the job is stopped. */
    NONE,
    /** Stop at the end offsets found when the job starts. */
    LATEST,
    /** Stop before the first record whose timestamp is after {@code stopping-timestamp}. */
    TIMESTAMP
}
