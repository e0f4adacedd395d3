package io.streamsplit.boot.autoconfigure.flink;

/**
 * Decides whether an embedded job resumes from the newest checkpoint it retained, before it does:
 * the job side checks that the checkpoint's offsets still belong to the topics in Kafka.
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
}
