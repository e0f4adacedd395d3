package io.streamsplit.pipeline.step;

/**
 * A step's code failed on a record under the {@code fail} policy, after its retries. The message names the step,
 * the record (topic, partition and offset when the step runs in its source's chain), the attempts and the
 * exception; the job restarts from its last checkpoint and meets the record again.
 */
public final class StepFailedException extends Exception {

    private static final long serialVersionUID = 1L;

    StepFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
