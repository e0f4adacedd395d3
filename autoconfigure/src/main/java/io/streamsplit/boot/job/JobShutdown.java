package io.streamsplit.boot.job;

import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkShutdownProperties;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the application's shutdown does to its job, per {@code streamsplit.flink.shutdown.job}: keep it
 * running (on a cluster; the next start adopts it), stop it with a savepoint (the next start resumes
 * from it), or cancel it (its latest retained checkpoint is where the next start resumes). Says in one
 * line what it did.
 */
final class JobShutdown {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSplitJob.class);

    private final FlinkProperties flink;
    private final String jobName;
    private final String target;
    private final boolean onCluster;

    JobShutdown(FlinkProperties flink, String jobName, String target, boolean onCluster) {
        this.flink = flink;
        this.jobName = jobName;
        this.target = target;
        this.onCluster = onCluster;
    }

    void stop(JobClient client, JobCommands commands) {
        Duration timeout = flink.getShutdown().getTimeout();
        FlinkShutdownProperties.ShutdownJob action = flink.getShutdown().effectiveJob(flink.getMode());
        if (action == FlinkShutdownProperties.ShutdownJob.KEEP && flink.getMode() == FlinkProperties.Mode.APPLICATION) {
            LOG.info("Flink job '{}' ({}) is left to {}", jobName, client.getJobID(), target);
            return;
        }
        if (action == FlinkShutdownProperties.ShutdownJob.KEEP) {
            LOG.info(
                    "Flink job '{}' ({}) keeps running on {} (streamsplit.flink.shutdown.job=keep); the next start of"
                            + " the application adopts it",
                    jobName,
                    client.getJobID(),
                    target);
            return;
        }
        try {
            JobStatus status = client.getJobStatus().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (status.isGloballyTerminalState()) {
                return;
            }
            if (action == FlinkShutdownProperties.ShutdownJob.SAVEPOINT) {
                String path = client.stopWithSavepoint(
                                false, flink.getShutdown().getSavepointDirectory(), SavepointFormatType.CANONICAL)
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info(
                        "Stopped Flink job '{}' ({}) with savepoint {}; {}",
                        jobName,
                        client.getJobID(),
                        path,
                        onCluster
                                ? "the next start of the application resumes from it"
                                : "start from it with streamsplit.flink.restore-path=" + path);
            } else {
                client.cancel().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                // cancel() returns once Flink accepted it; wait until the tasks are really gone
                commands.awaitEnd(client, timeout);
                LOG.info(
                        "Cancelled Flink job '{}' ({}){}",
                        jobName,
                        client.getJobID(),
                        onCluster
                                ? "; the next start of the application resumes from its latest retained checkpoint"
                                : "");
            }
        } catch (Exception e) {
            LOG.warn(
                    "Could not stop Flink job '{}' ({}) within {}: {}",
                    jobName,
                    client.getJobID(),
                    timeout,
                    StreamSplitJob.rootMessage(e),
                    e);
        }
    }
}
