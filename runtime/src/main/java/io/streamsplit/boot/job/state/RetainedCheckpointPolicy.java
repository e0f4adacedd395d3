package io.streamsplit.boot.job.state;

/**
 * Decides whether an embedded job resumes from the newest checkpoint it retained, before it does,
 * and checks a configured restore path: the job side checks that the offsets still belong to the
 * topics in Kafka.
 */
@FunctionalInterface
public interface RetainedCheckpointPolicy {

    /** Resume from everything: the default when nothing checks. */
    RetainedCheckpointPolicy ALWAYS = checkpoint -> true;

    /**
     * Whether to resume from {@code checkpoint}; may instead move it aside (and return {@code false}) or
     * fail startup with a report.
     */
    boolean resume(RetainedCheckpoints.Checkpoint checkpoint);

    /**
     * Checks the savepoint or checkpoint {@code streamsplit.flink.restore-path} names before the job
     * restores it; may fail startup with a report. Nothing by default.
     */
    default void checkRestorePath(String path) {}
}
