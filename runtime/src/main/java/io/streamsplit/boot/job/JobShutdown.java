package io.streamsplit.boot.job;

import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.cluster.ClusterJobKeeper;
import io.streamsplit.boot.job.failure.RunOutcomes;
import io.streamsplit.boot.job.state.ShutdownJob;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the application's shutdown does to its job, per {@code streamsplit.flink.shutdown.job}: keep it
 * running (on a cluster; the next start adopts it), stop it with a savepoint (the next start resumes
 * from it), or cancel it (its latest retained checkpoint is where the next start resumes). Says in one
 * line what it did, and on a cluster only what it knows: a job it last saw running keeps running.
 * All of it within {@code streamsplit.flink.shutdown.timeout} from the moment the stop began.
 */
final class JobShutdown {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSplitJob.class);
    /** How long a cancel after a failed shutdown savepoint may take: the MiniCluster closes after it anyway. */
    private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(5);

    private final JobSettings settings;
    private final String jobName;
    private final String target;
    private final boolean onCluster;
    private final @Nullable String savepointDirectory;

    JobShutdown(
            JobSettings settings,
            String jobName,
            String target,
            boolean onCluster,
            @Nullable String savepointDirectory) {
        this.settings = settings;
        this.jobName = jobName;
        this.target = target;
        this.onCluster = onCluster;
        this.savepointDirectory = savepointDirectory;
    }

    /**
     * Stops (or keeps) the job of {@code client} by {@code deadline}.
     *
     * @param seen what the application last saw of the job on a cluster, {@code null} embedded
     */
    void stop(JobClient client, JobCommands commands, ClusterJobKeeper.@Nullable Status seen, long deadline) {
        ShutdownJob action = settings.onShutdown();
        if (action == ShutdownJob.KEEP && settings.mode() == FlinkMode.APPLICATION) {
            LOG.info("Flink job '{}' ({}) is left to {}", jobName, client.getJobID(), target);
            return;
        }
        if (action == ShutdownJob.KEEP) {
            LOG.info("{}", keepLine(client, seen));
            return;
        }
        Duration timeout = settings.runs().stopTimeout();
        try {
            JobStatus status = client.getJobStatus().get(remaining(deadline), TimeUnit.MILLISECONDS);
            if (status.isGloballyTerminalState()) {
                return;
            }
            if (action == ShutdownJob.SAVEPOINT) {
                String path = client.stopWithSavepoint(false, savepointDirectory, SavepointFormatType.CANONICAL)
                        .get(remaining(deadline), TimeUnit.MILLISECONDS);
                LOG.info(
                        "Stopped Flink job '{}' ({}) with savepoint {}; {}",
                        jobName,
                        client.getJobID(),
                        path,
                        onCluster
                                ? "the next start of the application resumes from it"
                                : "the next start of the application resumes from it when it is the newest state in"
                                        + " the checkpoint storage, else start from it with"
                                        + " streamsplit.flink.restore-path=" + path);
            } else {
                client.cancel().get(remaining(deadline), TimeUnit.MILLISECONDS);
                // cancel() returns once Flink accepted it; wait until the tasks are really gone
                commands.awaitEnd(client, Duration.ofMillis(remaining(deadline)));
                LOG.info(
                        "Cancelled Flink job '{}' ({}){}",
                        jobName,
                        client.getJobID(),
                        onCluster
                                ? "; the next start of the application resumes from its latest retained checkpoint"
                                : "");
            }
        } catch (Exception e) {
            if (action == ShutdownJob.SAVEPOINT && !onCluster) {
                cancelAfterFailedSavepoint(client, commands, timeout, e);
                return;
            }
            LOG.warn(
                    "Could not stop Flink job '{}' ({}) within {} (streamsplit.flink.shutdown.timeout): {}",
                    jobName,
                    client.getJobID(),
                    timeout,
                    RunOutcomes.rootMessage(e),
                    e);
        }
    }

    /**
     * An embedded job whose savepoint did not come in time (or failed) is cancelled: the application is
     * stopping and the MiniCluster goes with it. One WARN says what the next start repeats.
     */
    private void cancelAfterFailedSavepoint(JobClient client, JobCommands commands, Duration timeout, Exception why) {
        LOG.warn(
                "Could not stop Flink job '{}' ({}) with a savepoint within {} (streamsplit.flink.shutdown.timeout): {};"
                        + " cancelled it instead. The next start resumes from its latest completed checkpoint and"
                        + " reads again what came after it (at most a checkpoint interval,"
                        + " streamsplit.flink.checkpointing.interval); raise streamsplit.flink.shutdown.timeout if"
                        + " savepoints take longer",
                jobName,
                client.getJobID(),
                timeout,
                RunOutcomes.rootMessage(why));
        try {
            client.cancel().get(CANCEL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            commands.awaitEnd(client, CANCEL_TIMEOUT);
        } catch (Exception notCancelled) {
            LOG.debug("Cancelling Flink job '{}' after its savepoint failed: {}", jobName, notCancelled.toString());
        }
    }

    /** "keeps running", said only of a job the application last saw running; otherwise what it knows. */
    private String keepLine(JobClient client, ClusterJobKeeper.@Nullable Status seen) {
        if (seen == null || seen.runSeenActive()) {
            return "Flink job '" + jobName + "' (" + client.getJobID() + ") keeps running on " + target
                    + " (streamsplit.flink.shutdown.job=keep); the next start of the application adopts it";
        }
        String unreachable = seen.unreachableFor(Instant.now());
        if (unreachable != null) {
            return "Flink job '" + jobName + "' (" + client.getJobID() + ") is left on " + target + ", which is "
                    + unreachable + ": if the job runs there it keeps running, and the next start of the application"
                    + " adopts it or puts it back";
        }
        return "Flink job '" + jobName + "' (" + client.getJobID() + ") was not running on " + target
                + " when the application stopped; the next start of the application starts it from its newest"
                + " retained state";
    }

    /** Milliseconds left until {@code deadline} ({@link System#nanoTime()}), at least 1. */
    static long remaining(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }
}
