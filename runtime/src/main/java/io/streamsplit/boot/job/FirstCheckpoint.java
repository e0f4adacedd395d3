package io.streamsplit.boot.job;

import io.streamsplit.boot.flink.rest.FlinkRestClient;
import java.time.Duration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Triggers a new run's first checkpoint as soon as every subtask runs. Flink schedules the first
 * periodic checkpoint at a random point of the first interval (up to 10 s by default); an
 * exactly-once job's output becomes visible only when a checkpoint commits it, so a start (and every
 * resubmission) would wait that long for its first record. The checkpoint of a job that has just
 * started holds little state and completes in milliseconds.
 */
final class FirstCheckpoint {

    private static final Logger LOG = LoggerFactory.getLogger(FirstCheckpoint.class);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private FirstCheckpoint() {}

    /** On a daemon thread: waits until every subtask of {@code jobId} runs, then asks for a checkpoint. */
    static void triggerWhenRunning(FlinkRestClient rest, String jobName, String jobId) {
        Thread trigger = new Thread(
                () -> {
                    try {
                        long deadline = System.nanoTime() + WAIT.toNanos();
                        while (!allRunning(rest.job(jobId))) {
                            if (System.nanoTime() > deadline) {
                                return; // the periodic checkpoints come anyway; health says why they do not
                            }
                            Thread.sleep(100);
                        }
                        LOG.debug("Triggering the first checkpoint of Flink job '{}' ({})", jobName, jobId);
                        rest.checkpoint(jobId, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        LOG.debug(
                                "Could not trigger the first checkpoint of Flink job '{}': {}", jobName, e.toString());
                    }
                },
                "streamsplit-first-checkpoint-" + jobName);
        trigger.setDaemon(true);
        trigger.start();
    }

    /** The job runs and so do all its subtasks (or have finished, as a bounded source's may). */
    private static boolean allRunning(JsonNode job) {
        return "RUNNING".equals(job.path("state").asText()) && FlinkRestClient.tasksNotRunning(job) == null;
    }
}
