package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedCheckpoints;
import io.streamsplit.boot.job.state.StorageStates;
import io.streamsplit.boot.job.state.UpgradeMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.jspecify.annotations.Nullable;

/**
 * Where the job's checkpoints and savepoints go on a cluster: the application's settings
 * ({@code streamsplit.flink.checkpointing.storage}, {@code streamsplit.flink.shutdown.savepoint-directory},
 * as the job's configuration has them), else the cluster's own ({@code execution.checkpointing.dir},
 * {@code execution.checkpointing.savepoint-dir}, or their older names); savepoints without a directory of
 * their own go to {@code <checkpoint storage>/savepoints}.
 *
 * @param checkpointStorage where checkpoints are kept, {@code null} when only in the JobManager's memory
 * @param savepointDirectory where savepoints go, {@code null} when nowhere
 */
record ClusterStorage(
        @Nullable String checkpointStorage, @Nullable String savepointDirectory) {

    /** From the job's configuration {@code job}, else the cluster's configuration {@code cluster}. */
    static ClusterStorage of(Configuration job, Configuration cluster) {
        String checkpoints = job.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                .or(() -> cluster.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
                .filter(path -> !path.isBlank())
                .orElse(null);
        String savepoints = job.getOptional(CheckpointingOptions.SAVEPOINT_DIRECTORY)
                .or(() -> cluster.getOptional(CheckpointingOptions.SAVEPOINT_DIRECTORY))
                .filter(path -> !path.isBlank())
                .orElse(checkpoints == null ? null : RetainedCheckpoints.savepointsUnder(checkpoints));
        return new ClusterStorage(checkpoints, savepoints);
    }

    /**
     * With {@code upgrade-mode: savepoint} the next version of the application stops the job with a savepoint,
     * with {@code last-state} it starts from the job's latest retained checkpoint: without a directory for
     * them, that upgrade would fail at the second deploy. Refused at the first.
     */
    void requireUpgradeState(UpgradeMode mode, String jobName) {
        if (mode == UpgradeMode.LAST_STATE && checkpointStorage == null) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.checkpointing.storage",
                    null,
                    "Flink job '" + jobName + "' is upgraded from its latest retained checkpoint"
                            + " (streamsplit.flink.upgrade-mode: last-state) when the next version of the application"
                            + " starts, but its checkpoints are kept only in the JobManager's memory: neither"
                            + " streamsplit.flink.checkpointing.storage nor the cluster's execution.checkpointing.dir"
                            + " is set; nothing was submitted",
                    "Set streamsplit.flink.checkpointing.storage to storage the cluster can write and the next run"
                            + " can read (e.g. s3://bucket/checkpoints), or choose another upgrade-mode.");
        }
        if (mode == UpgradeMode.SAVEPOINT && savepointDirectory == null) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.checkpointing.storage",
                    null,
                    "Flink job '" + jobName + "' is upgraded with a savepoint (streamsplit.flink.upgrade-mode:"
                            + " savepoint, the default) when the next version of the application starts, but there is"
                            + " no directory for savepoints: neither streamsplit.flink.checkpointing.storage nor"
                            + " streamsplit.flink.shutdown.savepoint-directory is set, and the cluster has no"
                            + " execution.checkpointing.dir or savepoint-dir; nothing was submitted",
                    "Set streamsplit.flink.checkpointing.storage to storage the cluster can write and the next run"
                            + " can read (e.g. s3://bucket/checkpoints; savepoints then go to <storage>/savepoints),"
                            + " or streamsplit.flink.shutdown.savepoint-directory; or set"
                            + " streamsplit.flink.upgrade-mode=stateless to start each new version without state.");
        }
    }

    /** The states runs of {@code identity} left in this storage. */
    StorageStates states(JobIdentity identity) {
        return new StorageStates(identity, checkpointStorage, savepointDirectory);
    }
}
