package io.streamsplit.boot.job.state;

import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A completed checkpoint or savepoint a run of the job left, which the next run can start from.
 *
 * @param path where it is ({@code execution.state-recovery.path})
 * @param kind what it is
 * @param checkpointId Flink's checkpoint id, or -1 when not known
 * @param completedAt when it completed
 * @param foundIn where the application learned of it, for the log
 */
public record RetainedState(String path, Kind kind, long checkpointId, Instant completedAt, String foundIn) {

    /** What a retained state is. */
    public enum Kind {
        /** A checkpoint Flink kept (retained on cancellation). */
        CHECKPOINT,
        /** A savepoint: an upgrade's, a stop's from the endpoint or the shutdown's. */
        SAVEPOINT,
        /** A path the user gave ({@code streamsplit.flink.restore-path}): a savepoint or a retained checkpoint. */
        GIVEN;

        /** "checkpoint", "savepoint", "savepoint or checkpoint": for the log. */
        public String word() {
            return this == GIVEN ? "savepoint or checkpoint" : name().toLowerCase(Locale.ROOT);
        }
    }

    /** "checkpoint 42 at file:/…/chk-42 (completed 2026-…; from …)". */
    public String describe() {
        return kind.word() + (checkpointId >= 0 ? " " + checkpointId : "") + " at " + path + " (completed "
                + completedAt + ", " + foundIn + ")";
    }

    /** The newer of two states; a {@code null} loses. */
    public static @Nullable RetainedState newer(@Nullable RetainedState a, @Nullable RetainedState b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return b.completedAt().isAfter(a.completedAt()) ? b : a;
    }
}
