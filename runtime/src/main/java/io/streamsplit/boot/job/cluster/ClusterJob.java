package io.streamsplit.boot.job.cluster;

import java.time.Instant;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.jspecify.annotations.Nullable;

/**
 * A job as the cluster lists it ({@code GET /jobs/overview}).
 *
 * @param id the job id
 * @param name the job name
 * @param state its state
 * @param startedAt when it was submitted
 * @param endedAt when it ended (finished, cancelled or failed for good), {@code null} while it has not
 */
public record ClusterJob(
        JobID id,
        String name,
        JobStatus state,
        Instant startedAt,
        @Nullable Instant endedAt) {

    /** Whether the job runs or will run again: not (yet) finished, cancelled or failed for good. */
    boolean active() {
        return !state.isGloballyTerminalState();
    }

    @Override
    public String toString() {
        return id + " (" + state + ")";
    }
}
