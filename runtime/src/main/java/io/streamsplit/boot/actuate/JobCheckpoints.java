package io.streamsplit.boot.actuate;

import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.failure.JobFailureHistory;
import io.streamsplit.boot.job.failure.JobFailures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionJobVertex;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionVertex;
import org.apache.flink.runtime.scheduler.ExecutionGraphInfo;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What Flink says about a job's progress (its REST API, or in-process on the embedded cluster): restarts, the last completed checkpoint, the
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
 * @param failureRepeats how many of the newest failures since the last completed checkpoint say the same as the
 *     latest: 2 or more is a job failing in a loop (a record its code fails on, again after every restart)
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
        @Nullable String tasksNotRunning,
        int failureRepeats) {

    /** How many of the newest failures a job's progress looks at for a loop. */
    private static final int RECENT = 10;

    /** A failure as health compares them: when, and what StreamSplit says of it. */
    private record Said(long at, String line) {}

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
        JsonNode checkpoints = rest.checkpoints(jobId);
        JsonNode entries = rest.exceptions(jobId).path("exceptionHistory").path("entries");
        JsonNode latest = entries.path(0);
        List<Said> recent = new ArrayList<>();
        for (JsonNode entry : entries) {
            if (recent.size() == RECENT) {
                break;
            }
            recent.add(new Said(
                    entry.path("timestamp").asLong(),
                    failures.describe(
                            entry.path("stacktrace").asText(),
                            entry.path("taskName").isTextual()
                                    ? entry.path("taskName").asText()
                                    : null)));
        }
        String failure = recent.isEmpty() ? null : recent.get(0).line();
        String inFlight = inFlight(rest, jobId, job, checkpoints);
        Instant failedAt = latest.isMissingNode()
                ? null
                : Instant.ofEpochMilli(latest.path("timestamp").asLong());
        JsonNode completed = checkpoints.path("latest").path("completed");
        Job read = new Job(
                restarts,
                submitted,
                running,
                failure,
                failedAt,
                inFlight,
                FlinkRestClient.tasksNotRunning(job),
                recent);
        if (completed.isMissingNode() || completed.isNull()) {
            return read.withoutCheckpoint();
        }
        return read.withCheckpoint(
                completed.path("id").asLong(),
                completed.path("latest_ack_timestamp").asLong(),
                completed.path("end_to_end_duration").asLong(),
                completed
                        .path("state_size")
                        .asLong(completed.path("checkpointed_size").asLong()));
    }

    /**
     * The same figures from what an in-process cluster knows of the job ({@link ExecutionGraphInfo}), without
     * the REST API's HTTP round trips and JSON.
     */
    static JobCheckpoints of(ExecutionGraphInfo info, long restarts, JobFailures failures) {
        ArchivedExecutionGraph graph = info.getArchivedExecutionGraph();
        long submitted = graph.getStatusTimestamp(JobStatus.INITIALIZING);
        long running = graph.getStatusTimestamp(JobStatus.RUNNING);
        List<JobFailureHistory.Failure> history = JobFailureHistory.of(info);
        JobFailureHistory.Failure latest = history.isEmpty() ? null : history.get(0);
        List<Said> recent = new ArrayList<>();
        for (JobFailureHistory.Failure each : history.subList(0, Math.min(RECENT, history.size()))) {
            recent.add(new Said(each.timestamp(), failures.describe(each.stacktrace(), each.taskName())));
        }
        String failure = recent.isEmpty() ? null : recent.get(0).line();
        Instant failedAt = latest == null ? null : Instant.ofEpochMilli(latest.timestamp());
        CheckpointStatsSnapshot stats = graph.getCheckpointStatsSnapshot();
        String inFlight = stats == null ? null : inFlight(graph, stats);
        Job read = new Job(restarts, submitted, running, failure, failedAt, inFlight, tasksNotRunning(graph), recent);
        CompletedCheckpointStats completed =
                stats == null ? null : stats.getHistory().getLatestCompletedCheckpoint();
        if (completed == null) {
            return read.withoutCheckpoint();
        }
        return read.withCheckpoint(
                completed.getCheckpointId(),
                completed.getLatestAckTimestamp(),
                completed.getEndToEndDuration(),
                completed.getStateSize());
    }

    /** What either view read of the job besides its last completed checkpoint; timestamps in epoch ms, 0: none. */
    private record Job(
            long restarts,
            long submitted,
            long running,
            @Nullable String failure,
            @Nullable Instant failedAt,
            @Nullable String inFlight,
            @Nullable String notRunning,
            List<Said> recent) {

        JobCheckpoints withoutCheckpoint() {
            return withCheckpoint(-1, 0, 0, 0);
        }

        /** With checkpoint {@code id} ({@code -1}: none completed) acknowledged at {@code ackedAt} (epoch ms). */
        JobCheckpoints withCheckpoint(long id, long ackedAt, long durationMillis, long size) {
            boolean none = id < 0;
            return new JobCheckpoints(
                    restarts,
                    id,
                    none ? null : Instant.ofEpochMilli(ackedAt),
                    none ? null : Duration.ofMillis(durationMillis),
                    size,
                    failure,
                    submitted > 0 ? Instant.ofEpochMilli(submitted) : null,
                    running > 0 ? Instant.ofEpochMilli(running) : null,
                    inFlight,
                    failedAt,
                    notRunning,
                    repeats(none ? 0 : ackedAt));
        }

        /** How many of the newest failures after {@code sinceMillis} say the same as the latest. */
        private int repeats(long sinceMillis) {
            int repeats = 0;
            for (Said said : recent) {
                if (said.at() <= sinceMillis
                        || !said.line().equals(recent.get(0).line())) {
                    break;
                }
                repeats++;
            }
            return repeats;
        }
    }

    /** {@link #inFlight(FlinkRestClient, String, JsonNode, JsonNode)} from in-process statistics. */
    private static @Nullable String inFlight(ArchivedExecutionGraph graph, CheckpointStatsSnapshot stats) {
        for (AbstractCheckpointStats checkpoint : stats.getHistory().getCheckpoints()) {
            if (checkpoint.getStatus() != CheckpointStatsStatus.IN_PROGRESS) {
                continue;
            }
            String text = inProgress(checkpoint.getCheckpointId(), checkpoint.getTriggerTimestamp());
            for (ArchivedExecutionJobVertex vertex : graph.getVerticesTopologically()) {
                TaskStateStats task = checkpoint.getTaskStateStats(vertex.getJobVertexId());
                if (task != null && task.getNumberOfAcknowledgedSubtasks() < task.getNumberOfSubtasks()) {
                    return text
                            + waitsOn(
                                    vertex.getName(),
                                    task.getNumberOfAcknowledgedSubtasks(),
                                    task.getNumberOfSubtasks());
                }
            }
            return text;
        }
        return null;
    }

    /** "checkpoint 7, in progress for 42 s": checkpoint {@code id}, triggered at {@code triggeredAt} (epoch ms). */
    private static String inProgress(long id, long triggeredAt) {
        return "checkpoint " + id + ", in progress for "
                + Duration.ofMillis(System.currentTimeMillis() - triggeredAt).toSeconds() + " s";
    }

    /** ", waits on 'sink totals: Writer' (1 of 2 subtasks acknowledged)". */
    private static String waitsOn(String vertex, int acknowledged, int subtasks) {
        return ", waits on '" + vertex + "' (" + acknowledged + " of " + subtasks + " subtasks acknowledged)";
    }

    /** {@link FlinkRestClient#tasksNotRunning(JsonNode)} from in-process task states. */
    private static @Nullable String tasksNotRunning(ArchivedExecutionGraph graph) {
        List<String> lagging = new ArrayList<>();
        for (ArchivedExecutionJobVertex vertex : graph.getVerticesTopologically()) {
            Map<String, Integer> states = new LinkedHashMap<>();
            for (ArchivedExecutionVertex task : vertex.getTaskVertices()) {
                states.merge(task.getExecutionState().name(), 1, Integer::sum);
            }
            String notRunning = FlinkRestClient.notAllRunning(vertex.getName(), vertex.getParallelism(), states);
            if (notRunning != null) {
                lagging.add(notRunning);
            }
        }
        return lagging.isEmpty() ? null : String.join("; ", lagging);
    }

    /** "checkpoint 7, in progress for 42 s, waits on 'sink totals: Writer' (1 of 2 subtasks acknowledged)". */
    private static @Nullable String inFlight(FlinkRestClient rest, String jobId, JsonNode job, JsonNode checkpoints) {
        for (JsonNode checkpoint : checkpoints.path("history")) {
            if (!"IN_PROGRESS".equals(checkpoint.path("status").asText())) {
                continue;
            }
            long id = checkpoint.path("id").asLong();
            String text = inProgress(id, checkpoint.path("trigger_timestamp").asLong());
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
                        return text
                                + waitsOn(names.getOrDefault(entry.getKey(), entry.getKey()), acknowledged, subtasks);
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
