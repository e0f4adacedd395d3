package io.streamsplit.boot.autoconfigure.flink;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets an embedded-mode application continue where its last run stopped. With a checkpoint
 * storage directory configured, the job gets a job id derived from its name, so every run writes
 * its checkpoints to {@code <storage>/<job id>/chk-<n>}; on start, the newest complete one (it has
 * {@code _metadata}) is where the job resumes from.
 */
public final class RetainedCheckpoints {

    private static final Logger LOG = LoggerFactory.getLogger(RetainedCheckpoints.class);

    private static final String CHECKPOINT_PREFIX = "chk-";
    private static final String METADATA = "_metadata";

    private RetainedCheckpoints() {}

    /**
     * Embedded mode with checkpointing and a storage directory: gives the job a stable id, and
     * unless a restore path is configured, points {@code execution.state-recovery.path} at the
     * newest retained checkpoint. Through the configuration, as Flink's executors read it.
     */
    static void resume(
            FlinkProperties flink, String jobName, Configuration configuration, RetainedCheckpointPolicy policy) {
        String storage = flink.getCheckpointing().getStorage();
        if (flink.getMode() != FlinkProperties.Mode.EMBEDDED
                || !flink.getCheckpointing().isEnabled()
                || storage == null) {
            return;
        }
        JobID jobId = jobId(jobName);
        configuration.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, jobId.toHexString());
        if (configuration.contains(StateRecoveryOptions.SAVEPOINT_PATH)) {
            LOG.info(
                    "Flink job '{}' starts from the configured restore path {}",
                    jobName,
                    configuration.get(StateRecoveryOptions.SAVEPOINT_PATH));
            return;
        }
        Optional<Checkpoint> latest;
        try {
            latest = latest(storage, jobId);
        } catch (IOException e) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.checkpointing.storage",
                    storage,
                    "the checkpoint directory cannot be read to resume the job: " + e.getMessage(),
                    "Fix the path or its permissions, or set streamsplit.flink.restore-path explicitly.",
                    e);
        }
        if (latest.isEmpty()) {
            LOG.info(
                    "No retained checkpoint of Flink job '{}' in {}; sources start from their starting offsets",
                    jobName,
                    storage);
            return;
        }
        Checkpoint checkpoint = latest.get();
        if (!policy.resume(checkpoint)) {
            return;
        }
        configuration.set(StateRecoveryOptions.SAVEPOINT_PATH, checkpoint.path());
        LOG.info(
                "Resuming Flink job '{}' from checkpoint {} at {} (written {}): sources continue from its offsets",
                jobName,
                checkpoint.id(),
                checkpoint.path(),
                checkpoint.writtenAt());
    }

    /** The directory holding every checkpoint of job {@code jobName} under {@code storage}. */
    public static Path jobDirectory(String storage, String jobName) {
        return new Path(new Path(storage), jobId(jobName).toString());
    }

    /** The same id for every run of the job named {@code jobName}. */
    static JobID jobId(String jobName) {
        UUID uuid = UUID.nameUUIDFromBytes(("streamsplit-job:" + jobName).getBytes(StandardCharsets.UTF_8));
        return new JobID(uuid.getLeastSignificantBits(), uuid.getMostSignificantBits());
    }

    /**
     * A completed checkpoint: its directory, number and when it was written.
     *
     * @param jobDirectory the directory of all checkpoints of the job (its {@code chk-<n>} parent)
     */
    public record Checkpoint(String path, long id, Instant writtenAt, String jobDirectory) {}

    /** The newest complete checkpoint of {@code jobId} under {@code storage}, if any. */
    public static Optional<Checkpoint> latest(String storage, JobID jobId) throws IOException {
        Path jobDirectory = new Path(new Path(storage), jobId.toString());
        FileSystem fs = jobDirectory.getFileSystem();
        if (!fs.exists(jobDirectory)) {
            return Optional.empty();
        }
        Checkpoint latest = null;
        FileStatus[] entries = fs.listStatus(jobDirectory);
        for (FileStatus entry : entries == null ? new FileStatus[0] : entries) {
            String name = entry.getPath().getName();
            if (!entry.isDir() || !name.startsWith(CHECKPOINT_PREFIX)) {
                continue;
            }
            long id;
            try {
                id = Long.parseLong(name.substring(CHECKPOINT_PREFIX.length()));
            } catch (NumberFormatException notACheckpoint) {
                continue;
            }
            Path metadata = new Path(entry.getPath(), METADATA);
            if (fs.exists(metadata) && (latest == null || id > latest.id())) {
                latest = new Checkpoint(
                        entry.getPath().toString(),
                        id,
                        Instant.ofEpochMilli(fs.getFileStatus(metadata).getModificationTime()),
                        jobDirectory.toString());
            }
        }
        return Optional.ofNullable(latest);
    }
}
