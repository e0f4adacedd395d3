package io.streamsplit.boot.job.state;

/** What to do with a retained checkpoint whose offsets do not fit the topics in Kafka. */
public enum StaleCheckpointAction {
    /** Fail startup with a report naming the topics and partitions. */
    FAIL,
    /** Move the job's checkpoints aside (renamed, not deleted) and start from the starting offsets. */
    START_FRESH,
    /** Resume anyway; the offset reset strategy decides where out-of-range partitions continue. */
    RESUME
}
