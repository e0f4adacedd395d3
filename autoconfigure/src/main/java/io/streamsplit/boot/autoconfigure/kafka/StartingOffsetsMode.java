package io.streamsplit.boot.autoconfigure.kafka;

/** {@code streamsplit.kafka.sources.<name>.starting-offsets}: where a new job starts reading (a restored job continues). */
public enum StartingOffsetsMode {
    /** The earliest offset still in each partition. */
    EARLIEST,
    /** The end of each partition: only records written after the job starts. */
    LATEST,
    /** The consumer group's committed offsets; partitions without a commit use the offset reset strategy. */
    COMMITTED,
    /** The first offset whose record timestamp is at or after {@code starting-timestamp}. */
    TIMESTAMP
}
