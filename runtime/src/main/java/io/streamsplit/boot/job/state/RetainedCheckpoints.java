package io.streamsplit.boot.job.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The checkpoints a run of a job retained in checkpoint storage, {@code <storage>/<job id>/chk-<n>}: the
 * newest complete one (it has {@code _metadata}) is where a next run can start from.
 */
public final class RetainedCheckpoints {

    private static final String CHECKPOINT_PREFIX = "chk-";
    private static final String METADATA = "_metadata";

    private static final String SAVEPOINTS = "savepoints";

    private RetainedCheckpoints() {}

    /** {@code <storage>/savepoints}: where savepoints go beside checkpoints kept in {@code storage}. */
    public static String savepointsUnder(String storage) {
        return storage.endsWith("/") ? storage + SAVEPOINTS : storage + "/" + SAVEPOINTS;
    }

    /**
     * The id every embedded run of the job named {@code jobName} had before runs got generations (snapshots of
     * StreamSplit 0.1): where the first start after the upgrade finds their checkpoints.
     */
    public static JobID jobId(String jobName) {
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
