package io.streamsplit.boot.job.cluster;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A completed checkpoint or savepoint a run of the job left, which the next run can start from.
 *
 * @param path where it is ({@code execution.state-recovery.path})
 * @param kind "checkpoint" or "savepoint"
 * @param checkpointId Flink's checkpoint id, or -1 when not known
 * @param completedAt when it completed
 * @param foundIn where the application learned of it, for the log
 */
public record RetainedState(String path, String kind, long checkpointId, Instant completedAt, String foundIn) {

    /** "checkpoint 42 at file:/…/chk-42 (completed 2026-…; from …)". */
    public String describe() {
        return kind + (checkpointId >= 0 ? " " + checkpointId : "") + " at " + path + " (completed " + completedAt
                + ", " + foundIn + ")";
    }

    /** The newer of two states; a {@code null} loses. */
    static @Nullable RetainedState newer(@Nullable RetainedState a, @Nullable RetainedState b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return b.completedAt().isAfter(a.completedAt()) ? b : a;
    }
}
