package io.streamsplit.boot.actuate;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The split state of the application's job, as the {@code kafkasplits} endpoint returns it.
 *
 * @param job the job name
 * @param jobId the Flink job id, or {@code null} before submission
 * @param status the job status (RUNNING, RESTARTING, ...), or NOT_SUBMITTED
 * @param mode embedded (read in-process) or remote (read from Flink REST)
 * @param readAt when the values were read (ISO-8601)
 * @param message why there are no splits, when there are none
 * @param sources per configured source
 */
public record JobSplits(
        String job,
        @Nullable String jobId,
        String status,
        String mode,
        String readAt,
        @Nullable String message,
        Map<String, SourceState> sources) {}
