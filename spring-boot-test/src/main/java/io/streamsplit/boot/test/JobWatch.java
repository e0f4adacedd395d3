package io.streamsplit.boot.test;

import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.failure.JobFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * The tester's view of the job, read through Flink's REST API (the same the health indicator reads):
 * whether every task runs, checkpoints, the latest failure in StreamSplit's words.
 */
final class JobWatch {

    private static final Duration POLL = Duration.ofMillis(100);

    private final StreamSplitJob job;
    private final FlinkRestClient rest;
    private final JobFailures failures;
    private final Supplier<@Nullable EmbeddedFlinkCluster> embedded;

    JobWatch(
            StreamSplitJob job,
            FlinkRestClient rest,
            JobFailures failures,
            Supplier<@Nullable EmbeddedFlinkCluster> embedded) {
        this.job = job;
        this.rest = rest;
        this.failures = failures;
        this.embedded = embedded;
    }

    /** Waits until the job was submitted and all of its tasks run; returns the job id. */
    String awaitRunning(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String jobId = awaitSubmitted(timeout);
        while (true) {
            JsonNode details = details(jobId);
            String state = details.path("state").asText("UNKNOWN");
            if (state.equals("FAILED") || state.equals("CANCELED") || state.equals("FINISHED")) {
                throw new AssertionError(
                        "Flink job '" + job.jobName() + "' is " + state + ", not running. " + describe());
            }
            if (state.equals("RUNNING") && allTasksRunning(details)) {
                return jobId;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Flink job '" + job.jobName() + "' did not get all of its tasks running"
                        + " within " + seconds(timeout) + ": " + tasks(details) + ". " + describe());
            }
            pause();
        }
    }

    /** Waits for a checkpoint that completes after this call; returns its id. */
    long awaitCheckpoint(Duration timeout) {
        String jobId = awaitSubmitted(timeout);
        long before = latestCheckpoint(jobId);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long latest = latestCheckpoint(jobId);
            if (latest > before) {
                return latest;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("No checkpoint of Flink job '" + job.jobName() + "' completed within "
                        + seconds(timeout) + " (latest completed: " + (before < 0 ? "none" : "#" + before) + "). "
                        + "Is streamsplit.flink.checkpointing.enabled false, or is an operator blocking? "
                        + describe());
            }
            pause();
        }
    }

    /**
     * Terminates the embedded cluster's TaskManager, as a crashed machine would, starts a new one and
     * waits until the job has restarted and runs again; returns the checkpoint it restored, or -1.
     */
    long injectFailure(Duration timeout) {
        EmbeddedFlinkCluster cluster = embedded.get();
        if (cluster == null) {
            throw new AssertionError("injectFailure() needs the embedded Flink cluster"
                    + " (streamsplit.flink.mode=embedded, which @StreamSplitTest sets unless a test overrides it)");
        }
        String jobId = awaitRunning(timeout);
        long failuresBefore = latestFailureTime(jobId);
        try {
            MiniCluster mini = cluster.miniCluster();
            mini.terminateTaskManager(0).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            mini.startTaskManager();
        } catch (Exception e) {
            throw new AssertionError("Could not restart the embedded TaskManager: " + e, e);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (latestFailureTime(jobId) <= failuresBefore) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Flink job '" + job.jobName() + "' did not register the TaskManager's loss"
                        + " within " + seconds(timeout) + ". " + describe());
            }
            pause();
        }
        long failure = latestFailureTime(jobId);
        awaitRunning(Duration.ofNanos(Math.max(deadline - System.nanoTime(), POLL.toNanos())));
        return restoredAfter(jobId, failure, deadline);
    }

    /**
     * The checkpoint the restart after {@code failureTime} restored. Flink's REST API caches checkpoint
     * statistics for a few seconds (rest.cache.checkpoint-statistics.timeout), so a job that runs again
     * may still show the restore before it, or none: wait for a restore newer than the failure.
     */
    private long restoredAfter(String jobId, long failureTime, long deadline) {
        while (true) {
            JsonNode checkpoints = checkpoints(jobId);
            JsonNode restored = checkpoints.path("latest").path("restored");
            if (restored.path("restore_timestamp").asLong(0) >= failureTime) {
                return restored.path("id").asLong(-1);
            }
            boolean anyCompleted =
                    checkpoints.path("latest").path("completed").path("id").asLong(-1) >= 0;
            if (!anyCompleted || System.nanoTime() > deadline) {
                return -1; // restarted without a checkpoint to restore
            }
            pause();
        }
    }

    /** The job's status, restarts, latest checkpoint and latest failure, for failure messages. */
    String describe() {
        CompletableFuture<JobClient> submission = job.submission();
        if (!submission.isDone()) {
            return "The job is still being submitted.";
        }
        if (submission.isCompletedExceptionally()) {
            return "The job was not submitted: "
                    + submission.handle((c, e) -> rootMessage(e)).join() + ".";
        }
        String jobId = submission.join().getJobID().toString();
        try {
            JsonNode details = rest.job(jobId);
            JsonNode checkpoints = rest.checkpoints(jobId);
            long latest =
                    checkpoints.path("latest").path("completed").path("id").asLong(-1);
            StringBuilder text = new StringBuilder("Job '")
                    .append(job.jobName())
                    .append("' (")
                    .append(jobId)
                    .append(") is ")
                    .append(details.path("state").asText("UNKNOWN"))
                    .append(", last checkpoint ")
                    .append(latest < 0 ? "none" : "#" + latest)
                    .append('.');
            JsonNode failure = rest.exceptions(jobId)
                    .path("exceptionHistory")
                    .path("entries")
                    .path(0);
            if (!failure.isMissingNode()) {
                String task = failure.path("taskName").isTextual()
                        ? failure.path("taskName").asText()
                        : null;
                text.append(" Latest failure: ")
                        .append(failures.describe(failure.path("stacktrace").asText(), task));
            }
            return text.toString();
        } catch (Exception e) {
            return "Job '" + job.jobName() + "' (" + jobId + "): could not read its state from Flink's REST API: " + e;
        }
    }

    private String awaitSubmitted(Duration timeout) {
        try {
            return job.submission()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .getJobID()
                    .toString();
        } catch (Exception e) {
            throw new AssertionError("Flink job '" + job.jobName() + "' was not submitted"
                    + (job.submission().isDone() ? "" : " within " + seconds(timeout)) + ": " + describe());
        }
    }

    private long latestCheckpoint(String jobId) {
        return checkpoints(jobId).path("latest").path("completed").path("id").asLong(-1);
    }

    private long latestFailureTime(String jobId) {
        try {
            return rest.exceptions(jobId)
                    .path("exceptionHistory")
                    .path("entries")
                    .path(0)
                    .path("timestamp")
                    .asLong(0);
        } catch (Exception e) {
            throw new AssertionError("Could not read the failures of job '" + job.jobName() + "': " + e, e);
        }
    }

    private JsonNode details(String jobId) {
        try {
            return rest.job(jobId);
        } catch (Exception e) {
            throw new AssertionError("Could not read job '" + job.jobName() + "' from Flink's REST API: " + e, e);
        }
    }

    private JsonNode checkpoints(String jobId) {
        try {
            return rest.checkpoints(jobId);
        } catch (Exception e) {
            throw new AssertionError("Could not read the checkpoints of job '" + job.jobName() + "': " + e, e);
        }
    }

    private static boolean allTasksRunning(JsonNode details) {
        JsonNode vertices = details.path("vertices");
        if (!vertices.isArray() || vertices.isEmpty()) {
            return false;
        }
        for (JsonNode vertex : vertices) {
            if (!vertex.path("status").asText().equals("RUNNING")) {
                return false;
            }
        }
        return true;
    }

    private static List<String> tasks(JsonNode details) {
        List<String> tasks = new ArrayList<>();
        details.path("vertices")
                .forEach(v -> tasks.add(
                        v.path("name").asText() + " " + v.path("status").asText()));
        return tasks;
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    static String seconds(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }

    static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }
}
