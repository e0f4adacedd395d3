package io.streamsplit.boot.job.failure;

import io.streamsplit.boot.flink.rest.RestPoller;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the running job's exception history every few seconds (in-process on the embedded cluster, Flink's
 * REST API on a remote one) and logs each new cause
 * once, in the application's terms: one ERROR line naming the source or sink, the property, the
 * value and the fix when it is a Kafka problem StreamSplit can name, the root cause otherwise. The
 * stack trace goes to DEBUG; the same cause again (the next restart) only to DEBUG.
 */
public final class JobFailureReporter implements AutoCloseable {

    static final Duration INTERVAL = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(JobFailureReporter.class);

    private final String jobName;
    private final String jobId;
    private final JobFailureHistory history;
    private final JobFailures failures;
    private final Set<String> reported = new HashSet<>();
    private final RestPoller poller;
    private final JobFailureLog log;
    private long lastSeen;

    /**
     * Reads the exception history of job {@code jobId} from now on, every {@link #INTERVAL}, until closed, and adds
     * each failure to {@code log}.
     */
    public JobFailureReporter(
            String jobName, String jobId, JobFailureHistory history, JobFailures failures, JobFailureLog log) {
        this.jobName = jobName;
        this.jobId = jobId;
        this.history = history;
        this.failures = failures;
        this.log = log;
        this.poller = new RestPoller("streamsplit-failures-" + jobName, INTERVAL, this::poll);
    }

    private void poll() {
        List<JobFailureHistory.Failure> entries;
        try {
            entries = history.read(jobId);
        } catch (Exception e) {
            return; // the cluster is busy or gone; the next poll tries again
        }
        long newest = lastSeen;
        for (int i = entries.size() - 1; i >= 0; i--) { // oldest first
            JobFailureHistory.Failure entry = entries.get(i);
            if (entry.timestamp() > lastSeen) {
                String line = report(entry.stacktrace(), entry.taskName());
                log.add(new JobFailureLog.Entry(
                        java.time.Instant.ofEpochMilli(entry.timestamp()),
                        jobId,
                        line,
                        JobFailures.rootCauseClass(entry.stacktrace()),
                        entry.taskName()));
                newest = Math.max(newest, entry.timestamp());
            }
        }
        lastSeen = newest;
    }

    /** Logs {@code stacktrace} once per distinct cause; returns the line it logged (or would have). */
    String report(String stacktrace, @Nullable String taskName) {
        String line = failures.describe(stacktrace, taskName);
        if (reported.add(line)) {
            LOG.error(
                    "Flink job '{}' failed: {} Flink restarts it from its last checkpoint while its restart"
                            + " strategy allows.",
                    jobName,
                    line);
        } else {
            LOG.debug("Flink job '{}' failed again: {}", jobName, line);
        }
        LOG.debug("Flink job '{}' failure{}:\n{}", jobName, taskName == null ? "" : " in " + taskName, stacktrace);
        return line;
    }

    @Override
    public void close() {
        poller.stop();
    }
}
