package io.streamsplit.boot.job.state;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The states the job's runs left in checkpoint storage ({@code <storage>/<job id>/chk-<n>}) and in the
 * savepoint directory ({@code savepoint-<first 6 hex digits of the job id>-…}), read directly: what
 * the next start resumes from when the cluster no longer lists the runs (it restarted, or forgot
 * them after {@code jobstore.expiration-time}). Needs the application to reach that storage (the same
 * shared file system, or Flink's file system plugin for the object store on its classpath); when it
 * cannot, the cluster's record is all there is.
 */
public final class StorageStates {

    private static final Logger LOG = LoggerFactory.getLogger(StorageStates.class);
    private static final String METADATA = "_metadata";

    private final JobIdentity identity;
    private final @Nullable String checkpointStorage;
    private final @Nullable String savepointDirectory;

    public StorageStates(
            JobIdentity identity, @Nullable String checkpointStorage, @Nullable String savepointDirectory) {
        this.identity = identity;
        this.checkpointStorage = checkpointStorage;
        this.savepointDirectory = savepointDirectory;
    }

    /** The newest checkpoint or savepoint of any run found in storage, and the highest generation seen. */
    public Found scan() {
        RetainedState newest = null;
        long generation = 0;
        if (checkpointStorage != null) {
            try {
                Path storage = new Path(checkpointStorage);
                FileSystem fs = storage.getFileSystem();
                for (FileStatus entry : list(fs, storage)) {
                    JobID run = jobId(entry.getPath().getName());
                    if (!entry.isDir() || run == null || !identity.owns(run)) {
                        continue;
                    }
                    generation = Math.max(generation, identity.generation(run));
                    Optional<RetainedCheckpoints.Checkpoint> latest =
                            RetainedCheckpoints.latest(checkpointStorage, run);
                    if (latest.isPresent()) {
                        RetainedCheckpoints.Checkpoint checkpoint = latest.get();
                        newest = RetainedState.newer(
                                newest,
                                new RetainedState(
                                        checkpoint.path(),
                                        RetainedState.Kind.CHECKPOINT,
                                        checkpoint.id(),
                                        checkpoint.writtenAt(),
                                        "found in checkpoint storage " + checkpointStorage));
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug(
                        "Could not read checkpoint storage {} from the application: {}",
                        checkpointStorage,
                        e.toString());
            }
        }
        if (savepointDirectory != null) {
            try {
                for (RetainedState savepoint : savepoints(identity, savepointDirectory)) {
                    newest = RetainedState.newer(newest, savepoint);
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug(
                        "Could not read savepoint directory {} from the application: {}",
                        savepointDirectory,
                        e.toString());
            }
        }
        return new Found(newest, generation);
    }

    /** The complete savepoints of {@code identity}'s runs in {@code savepointDirectory}, in no order. */
    static java.util.List<RetainedState> savepoints(JobIdentity identity, String savepointDirectory)
            throws IOException {
        java.util.List<RetainedState> savepoints = new java.util.ArrayList<>();
        Path directory = new Path(savepointDirectory);
        FileSystem fs = directory.getFileSystem();
        for (FileStatus entry : list(fs, directory)) {
            Path metadata = new Path(entry.getPath(), METADATA);
            if (entry.isDir()
                    && entry.getPath().getName().startsWith(identity.savepointPrefix())
                    && fs.exists(metadata)) {
                savepoints.add(new RetainedState(
                        entry.getPath().toString(),
                        RetainedState.Kind.SAVEPOINT,
                        -1,
                        Instant.ofEpochMilli(fs.getFileStatus(metadata).getModificationTime()),
                        "found in savepoint directory " + savepointDirectory));
            }
        }
        return savepoints;
    }

    /** The entries of {@code directory}; none when it does not exist. */
    static FileStatus[] list(FileSystem fs, Path directory) throws IOException {
        if (!fs.exists(directory)) {
            return new FileStatus[0];
        }
        FileStatus[] entries = fs.listStatus(directory);
        return entries == null ? new FileStatus[0] : entries;
    }

    /** The run whose checkpoint directory is named {@code name}, or {@code null} for another directory. */
    static @Nullable JobID jobId(String name) {
        if (name.length() != 32) {
            return null;
        }
        try {
            return JobID.fromHexString(name);
        } catch (IllegalArgumentException notAJobId) {
            return null;
        }
    }

    /**
     * @param newest the newest state, or {@code null}
     * @param lastGeneration the highest generation that wrote checkpoints, 0 when none
     */
    public record Found(@Nullable RetainedState newest, long lastGeneration) {}
}
