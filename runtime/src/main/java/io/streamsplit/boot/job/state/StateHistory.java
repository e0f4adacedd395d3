package io.streamsplit.boot.job.state;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the states a job's runs leave behind from piling up: every run retains its last checkpoint
 * ({@code <storage>/<job id>/chk-<n>}) and every stop, upgrade or endpoint call may add a savepoint
 * ({@code savepoint-<id prefix>-…}), so months of restarts would fill the disk. Before a new run starts,
 * {@link #prune} lists them all, newest first, keeps the newest {@code maxCount} that are younger than {@code
 * maxAge} — and always the newest one and the one the run starts from, whatever their age — and deletes the
 * rest, with any checkpoint directory a killed run left incomplete (no {@code _metadata}, an hour old). A run directory of an
 * earlier generation is removed with its last checkpoint; the directory the next run writes to is not.
 *
 * <pre>{@code
 * StateHistory.Pruned pruned = new StateHistory(identity, "file:///var/lib/app/checkpoints", null, StateHistory.Limits.DEFAULT)
 *         .prune(Set.of(resumeFrom), identity.jobId(4), Instant.now());
 * pruned.kept().forEach(state -> log.info("kept {}", state.describe()));
 * }</pre>
 */
public final class StateHistory {

    private static final Logger LOG = LoggerFactory.getLogger(StateHistory.class);
    private static final String CHECKPOINT_PREFIX = "chk-";
    private static final String METADATA = "_metadata";
    private static final Duration INCOMPLETE_AFTER = Duration.ofHours(1);

    private final JobIdentity identity;
    private final String checkpointStorage;
    private final @Nullable String savepointDirectory;
    private final int maxCount;
    private final Duration maxAge;

    /**
     * How much history to keep ({@code streamsplit.flink.checkpointing.history.*}).
     *
     * @param maxCount at most this many states (the newest always stays)
     * @param maxAge none older than this (but the newest)
     */
    public record Limits(int maxCount, Duration maxAge) {

        /** Three states, a week: a few restarts or upgrades to go back to, a bounded disk. */
        public static final Limits DEFAULT = new Limits(3, Duration.ofDays(7));
    }

    public StateHistory(
            JobIdentity identity, String checkpointStorage, @Nullable String savepointDirectory, Limits limits) {
        this.identity = identity;
        this.checkpointStorage = checkpointStorage;
        this.savepointDirectory = savepointDirectory;
        this.maxCount = limits.maxCount();
        this.maxAge = limits.maxAge();
    }

    /**
     * What a prune kept (newest first) and deleted.
     *
     * @param kept the states still on disk, newest first
     * @param deleted the paths deleted: states, incomplete checkpoints, empty run directories
     */
    public record Pruned(List<RetainedState> kept, List<String> deleted) {}

    /**
     * Deletes what falls outside the history.
     *
     * @param protect paths never deleted (the state the next run starts from, a configured restore path)
     * @param nextRun the run that writes next, or the live one: its directory and checkpoints are left alone
     */
    public Pruned prune(Set<String> protect, JobID nextRun, Instant now) {
        Set<String> protectedPaths = new java.util.HashSet<>();
        protect.forEach(path -> protectedPaths.add(path.endsWith("/") ? path.substring(0, path.length() - 1) : path));
        List<RetainedState> states = new ArrayList<>();
        List<Path> incomplete = new ArrayList<>();
        List<Path> runDirectories = new ArrayList<>();
        try {
            Path storage = new Path(checkpointStorage);
            FileSystem fs = storage.getFileSystem();
            for (FileStatus run : StorageStates.list(fs, storage)) {
                JobID id = StorageStates.jobId(run.getPath().getName());
                if (!run.isDir() || id == null || !identity.owns(id)) {
                    continue;
                }
                if (id.equals(nextRun)) {
                    continue; // the live run's own checkpoints are Flink's to keep and subsume
                }
                runDirectories.add(run.getPath());
                for (FileStatus entry : StorageStates.list(fs, run.getPath())) {
                    long number = checkpointNumber(entry);
                    if (number < 0) {
                        continue;
                    }
                    Path metadata = new Path(entry.getPath(), METADATA);
                    if (!fs.exists(metadata)) {
                        // a run killed mid-checkpoint; an hour old, so never one a live run is writing
                        if (Duration.between(Instant.ofEpochMilli(entry.getModificationTime()), now)
                                        .compareTo(INCOMPLETE_AFTER)
                                > 0) {
                            incomplete.add(entry.getPath());
                        }
                        continue;
                    }
                    states.add(new RetainedState(
                            entry.getPath().toString(),
                            RetainedState.Kind.CHECKPOINT,
                            number,
                            Instant.ofEpochMilli(fs.getFileStatus(metadata).getModificationTime()),
                            "checkpoint storage " + checkpointStorage));
                }
            }
            if (savepointDirectory != null) {
                states.addAll(StorageStates.savepoints(identity, savepointDirectory));
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Could not list the retained states of Flink job '{}' in {} to keep their history short: {}."
                            + " Nothing was deleted; check that the application can read and write that storage",
                    identity.name(),
                    checkpointStorage,
                    e.toString());
            return new Pruned(List.of(), List.of());
        }
        states.sort(Comparator.comparing(RetainedState::completedAt).reversed());
        List<RetainedState> kept = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            RetainedState state = states.get(i);
            boolean young = Duration.between(state.completedAt(), now).compareTo(maxAge) <= 0;
            if (i == 0 || protectedPaths.contains(state.path()) || (kept.size() < maxCount && young)) {
                kept.add(state);
            } else if (delete(state.path())) {
                deleted.add(state.path());
            }
        }
        for (Path path : incomplete) {
            if (delete(path.toString())) {
                deleted.add(path.toString());
            }
        }
        for (Path run : runDirectories) {
            String prefix = run.toString() + "/";
            if (kept.stream().noneMatch(state -> state.path().startsWith(prefix)) && delete(run.toString())) {
                deleted.add(run.toString());
            }
        }
        if (!deleted.isEmpty()) {
            LOG.info(
                    "Flink job '{}': kept {} of its retained states (the newest {} younger than {}, and the one it"
                            + " resumes from), deleted {} older ones: {}",
                    identity.name(),
                    kept.size(),
                    maxCount,
                    maxAge,
                    deleted.size(),
                    deleted);
        }
        return new Pruned(List.copyOf(kept), List.copyOf(deleted));
    }

    private boolean delete(String path) {
        try {
            Path target = new Path(path);
            return target.getFileSystem().delete(target, true);
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Could not delete {} (an old state of Flink job '{}'): {}; it stays on disk",
                    path,
                    identity.name(),
                    e.toString());
            return false;
        }
    }

    private static long checkpointNumber(FileStatus entry) {
        String name = entry.getPath().getName();
        if (!entry.isDir() || !name.startsWith(CHECKPOINT_PREFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(CHECKPOINT_PREFIX.length()));
        } catch (NumberFormatException notACheckpoint) {
            return -1;
        }
    }
}
