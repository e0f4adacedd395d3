package io.streamsplit.boot.actuate;

import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import io.streamsplit.boot.job.JobFailures;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What Flink's REST API says about a job's progress: restarts, the last completed checkpoint, the
 * checkpoint in flight (and the operator it waits on), when the job was submitted, and the latest
 * failure in the application's terms.
 *
 * @param restarts Flink's {@code numRestarts}
 * @param lastCheckpointId id of the latest completed checkpoint, or -1 when none completed
 * @param lastCheckpointTime when it completed
 * @param lastCheckpointDuration end-to-end duration
 * @param lastCheckpointSize state size in bytes
 * @param failure the latest failure, said in StreamSplit's words, or {@code null}
 * @param submittedAt when the job was submitted (Flink's {@code start-time}), or {@code null}
 * @param runningSince when the job last switched to RUNNING (after its latest restart), or {@code null}
 * @param inFlight the checkpoint in progress and what it waits on, or {@code null}
 * @param lastFailureTime when the latest failure happened, or {@code null}
 * @param tasksNotRunning the operators whose subtasks are not all running (or finished), or {@code null}
 */
record JobCheckpoints(
        long restarts,
        long lastCheckpointId,
        @Nullable Instant lastCheckpointTime,
        @Nullable Duration lastCheckpointDuration,
        long lastCheckpointSize,
        @Nullable String failure,
        @Nullable Instant submittedAt,
        @Nullable Instant runningSince,
        @Nullable String inFlight,
        @Nullable Instant lastFailureTime,
        @Nullable String tasksNotRunning) {

    /** @param freshRestarts the restart count read in-process, or {@code null} to take the REST API's */
    static JobCheckpoints read(FlinkRestClient rest, String jobId, @Nullable Long freshRestarts, JobFailures failures)
            throws Exception {
        long restarts = freshRestarts != null ? freshRestarts : 0;
        if (freshRestarts == null) {
            for (JsonNode metric : rest.jobMetrics(jobId, "numRestarts")) {
                restarts = metric.path("value").asLong();
            }
        }
        JsonNode job = rest.job(jobId);
        long submitted = job.path("start-time").asLong(0);
        long running = job.path("timestamps").path("RUNNING").asLong(0);
        Instant runningSince = running > 0 ? Instant.ofEpochMilli(running) : null;
        JsonNode checkpoints = rest.checkpoints(jobId);
        JsonNode latest =
                rest.exceptions(jobId).path("exceptionHistory").path("entries").path(0);
        String failure = latest.isMissingNode()
                ? null
                : failures.describe(
                        latest.path("stacktrace").asText(),
                        latest.path("taskName").isTextual()
                                ? latest.path("taskName").asText()
                                : null);
        String inFlight = inFlight(rest, jobId, job, checkpoints);
        Instant failedAt = latest.isMissingNode()
                ? null
                : Instant.ofEpochMilli(latest.path("timestamp").asLong());
        JsonNode completed = checkpoints.path("latest").path("completed");
        Instant since = submitted > 0 ? Instant.ofEpochMilli(submitted) : null;
        String notRunning = FlinkRestClient.tasksNotRunning(job);
        if (completed.isMissingNode() || completed.isNull()) {
            return new JobCheckpoints(
                    restarts, -1, null, null, 0, failure, since, runningSince, inFlight, failedAt, notRunning);
        }
        return new JobCheckpoints(
                restarts,
                completed.path("id").asLong(),
                Instant.ofEpochMilli(completed.path("latest_ack_timestamp").asLong()),
                Duration.ofMillis(completed.path("end_to_end_duration").asLong()),
                completed
                        .path("state_size")
                        .asLong(completed.path("checkpointed_size").asLong()),
                failure,
                since,
                runningSince,
                inFlight,
                failedAt,
                notRunning);
    }

    /** "checkpoint 7, in progress for 42 s, waits on 'sink totals: Writer' (1 of 2 subtasks acknowledged)". */
    private static @Nullable String inFlight(FlinkRestClient rest, String jobId, JsonNode job, JsonNode checkpoints) {
        for (JsonNode checkpoint : checkpoints.path("history")) {
            if (!"IN_PROGRESS".equals(checkpoint.path("status").asText())) {
                continue;
            }
            long id = checkpoint.path("id").asLong();
            long age = System.currentTimeMillis()
                    - checkpoint.path("trigger_timestamp").asLong();
            String text = "checkpoint " + id + ", in progress for "
                    + Duration.ofMillis(age).toSeconds() + " s";
            try {
                Map<String, String> names = new HashMap<>();
                job.path("vertices")
                        .forEach(v ->
                                names.put(v.path("id").asText(), v.path("name").asText()));
                JsonNode tasks = rest.get("/jobs/" + jobId + "/checkpoints/details/" + id)
                        .path("tasks");
                for (var task = tasks.fields(); task.hasNext(); ) {
                    var entry = task.next();
                    int acknowledged =
                            entry.getValue().path("num_acknowledged_subtasks").asInt();
                    int subtasks = entry.getValue().path("num_subtasks").asInt();
                    if (acknowledged < subtasks) {
                        return text + ", waits on '" + names.getOrDefault(entry.getKey(), entry.getKey()) + "' ("
                                + acknowledged + " of " + subtasks + " subtasks acknowledged)";
                    }
                }
            } catch (Exception e) {
                return text;
            }
            return text;
        }
        return null;
    }

    /** Age of the last completed checkpoint, or {@code null} when none completed. */
    @Nullable
    Duration age(Instant now) {
        return lastCheckpointTime == null ? null : Duration.between(lastCheckpointTime, now);
    }

    Map<String, Object> details(Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (lastCheckpointId < 0 || lastCheckpointTime == null || lastCheckpointDuration == null) {
            details.put("id", null);
        } else {
            details.put("id", lastCheckpointId);
            details.put("completedAt", lastCheckpointTime.toString());
            details.put("age", Duration.between(lastCheckpointTime, now).toMillis() + "ms");
            details.put("duration", lastCheckpointDuration.toMillis() + "ms");
            details.put("sizeBytes", lastCheckpointSize);
        }
        if (inFlight != null) {
            details.put("inProgress", inFlight);
        }
        return details;
    }
}
