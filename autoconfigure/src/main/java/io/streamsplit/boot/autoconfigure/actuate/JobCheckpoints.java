package io.streamsplit.boot.autoconfigure.actuate;

import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaAccessErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What Flink's REST API says about a job's restarts and last completed checkpoint.
 *
 * @param restarts {@code numRestarts}
 * @param lastCheckpointId id of the latest completed checkpoint, or -1 when none completed
 * @param lastCheckpointTime when it completed
 * @param lastCheckpointDuration end-to-end duration
 * @param lastCheckpointSize state size in bytes
 * @param failure the root cause of the latest failure, or {@code null}
 */
record JobCheckpoints(
        long restarts,
        long lastCheckpointId,
        Instant lastCheckpointTime,
        Duration lastCheckpointDuration,
        long lastCheckpointSize,
        String failure) {

    static JobCheckpoints read(FlinkRestClient rest, String jobId) throws Exception {
        long restarts = 0;
        for (JsonNode metric : rest.jobMetrics(jobId, "numRestarts")) {
            restarts = metric.path("value").asLong();
        }
        JsonNode completed = rest.checkpoints(jobId).path("latest").path("completed");
        JsonNode latest =
                rest.exceptions(jobId).path("exceptionHistory").path("entries").path(0);
        String stacktrace = latest.path("stacktrace").asText();
        String access = KafkaAccessErrors.explain(stacktrace);
        String failure = latest.isMissingNode() ? null : rootCause(stacktrace) + (access != null ? " — " + access : "");
        if (completed.isMissingNode() || completed.isNull()) {
            return new JobCheckpoints(restarts, -1, null, null, 0, failure);
        }
        return new JobCheckpoints(
                restarts,
                completed.path("id").asLong(),
                Instant.ofEpochMilli(completed.path("latest_ack_timestamp").asLong()),
                Duration.ofMillis(completed.path("end_to_end_duration").asLong()),
                completed
                        .path("state_size")
                        .asLong(completed.path("checkpointed_size").asLong()),
                failure);
    }

    /** Age of the last completed checkpoint, or {@code null} when none completed. */
    @Nullable
    Duration age(Instant now) {
        return lastCheckpointTime == null ? null : Duration.between(lastCheckpointTime, now);
    }

    Map<String, Object> details(Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (lastCheckpointId < 0) {
            details.put("id", null);
            return details;
        }
        details.put("id", lastCheckpointId);
        details.put("completedAt", lastCheckpointTime.toString());
        details.put("age", age(now).toMillis() + "ms");
        details.put("duration", lastCheckpointDuration.toMillis() + "ms");
        details.put("sizeBytes", lastCheckpointSize);
        return details;
    }

    /**
     * The first cause under Flink's own wrapper (the connector names topic, partition and offset
     * there) and the innermost cause; the top line when there is no cause.
     */
    private static String rootCause(String stacktrace) {
        String top = null;
        java.util.List<String> causes = new java.util.ArrayList<>();
        for (String line : stacktrace.split("\n")) {
            if (top == null && !line.isBlank()) {
                top = line.trim();
            }
            if (line.startsWith("Caused by: ")) {
                causes.add(line.substring("Caused by: ".length()).trim());
            }
        }
        if (causes.isEmpty()) {
            return top;
        }
        String first = causes.get(0);
        String last = causes.get(causes.size() - 1);
        return causes.size() == 1 ? first : first + " (caused by " + last + ")";
    }
}
