package io.streamsplit.boot.job;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedCheckpointPolicy;
import io.streamsplit.boot.job.state.RetainedCheckpoints;
import io.streamsplit.boot.job.state.RetainedState;
import io.streamsplit.boot.job.state.StateHistory;
import io.streamsplit.boot.job.state.StorageStates;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.boot.kafka.KafkaClusterId;
import io.streamsplit.boot.kafka.KafkaSources;
import java.io.IOException;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an embedded job keeps its checkpoints, and where the next start of the application resumes it:
 * so that a restart (a redeploy, a crash, {@code kill -9}) continues where the job stopped instead of
 * reading its topics again.
 *
 * <ul>
 *   <li>Storage: {@code streamsplit.flink.checkpointing.storage}, else a directory under
 *       {@code java.io.tmpdir} for the Kafka cluster the job reads
 *       ({@code streamsplit/<kafka cluster id>}), as Kafka Streams keeps its state under
 *       {@code java.io.tmpdir} by default. The cluster id keeps the checkpoints of one Kafka apart from
 *       another's: a new broker at the same address (a test's, a recreated one) starts fresh. On the
 *       dev-mode broker, whose data is deleted at shutdown, checkpoints stay in memory.
 *   <li>Resume: every run of the job gets an id of its {@link JobIdentity} (the same family as on a
 *       cluster), so its checkpoints are {@code <storage>/<job id>/chk-<n>}; a start resumes from the
 *       newest checkpoint or savepoint any run left ({@code restore-path} wins), after
 *       {@code on-stale-checkpoint} has compared it with Kafka.
 * </ul>
 */
public final class EmbeddedCheckpoints {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCheckpoints.class);
    private static final String STORAGE = "streamsplit.flink.checkpointing.storage";

    private EmbeddedCheckpoints() {}

    /**
     * Where a job keeps its checkpoints, and why a restart of the application would not find them.
     *
     * @param storage the checkpoint storage, {@code null} for the JobManager's memory
     * @param notRetained why a restart would miss the embedded job's state, {@code null} when it would not
     */
    public record Storage(
            @Nullable String storage, @Nullable String notRetained) {}

    /**
     * Where job {@code jobName} keeps its checkpoints: {@code configured} ({@code streamsplit.flink.checkpointing.storage}),
     * else, embedded with checkpoints on, the default for the Kafka cluster at the shared bootstrap servers, which are
     * asked for its id within {@code timeout}. A storage the application cannot write fails startup, as does a
     * {@code savepointDirectory} ({@code streamsplit.flink.shutdown.savepoint-directory}) beside a storage.
     */
    public static Storage storage(
            String jobName,
            @Nullable String configured,
            @Nullable String savepointDirectory,
            boolean embedded,
            boolean checkpointing,
            KafkaSources kafka,
            KafkaClients clients,
            Duration timeout) {
        if (!embedded) {
            return new Storage(configured, null);
        }
        if (!checkpointing) {
            return new Storage(
                    configured,
                    kafka.sharedIsDevBroker()
                            ? null
                            : "checkpointing is off (streamsplit.flink.checkpointing.enabled=false): no offsets are"
                                    + " committed and no state is kept");
        }
        String storage = configured;
        String notRetained = null;
        if (storage == null && !kafka.sharedIsDevBroker()) {
            Optional<String> cluster = sharedServers(kafka).flatMap(at -> KafkaClusterId.lookUp(at, clients, timeout));
            if (cluster.isPresent()) {
                storage = defaultStorage(cluster.get());
                LOG.info(
                        "Flink job '{}' keeps its checkpoints in {} (the default for Kafka cluster {}; set {} to a"
                                + " persistent volume or shared storage for production): a restart continues where it"
                                + " stopped",
                        jobName,
                        storage,
                        cluster.get(),
                        STORAGE);
            } else {
                notRetained = "the Kafka cluster did not answer at startup, so its default checkpoint directory is"
                        + " unknown and checkpoints stay in memory";
            }
        }
        if (storage != null) {
            requireWritable(STORAGE, storage, configured == null);
            if (savepointDirectory != null) {
                requireWritable("streamsplit.flink.shutdown.savepoint-directory", savepointDirectory, false);
            }
        }
        return new Storage(storage, notRetained);
    }

    /** The default storage of embedded jobs reading the Kafka cluster {@code clusterId}. */
    static String defaultStorage(String clusterId) {
        return Paths.get(System.getProperty("java.io.tmpdir"), "streamsplit", clusterId)
                .toAbsolutePath()
                .toUri()
                .toString();
    }

    private static Optional<String> sharedServers(KafkaSources kafka) {
        try {
            return Optional.of(kafka.sharedBootstrapServers());
        } catch (InvalidStreamSplitConfigurationException noSharedCluster) {
            return Optional.empty(); // every source and sink names its own; the startup check says what is missing
        }
    }

    /**
     * Fails startup unless the application can create files in {@code directory}: an embedded job writes its
     * checkpoints from this process. Only {@code file:} paths are checked; others need Flink's file system
     * plugin, which the job's own first checkpoint tries.
     */
    static void requireWritable(String property, String directory, boolean isDefault) {
        Path path = new Path(directory);
        String scheme = path.toUri().getScheme();
        if (scheme != null && !scheme.equals("file")) {
            return;
        }
        try {
            FileSystem fs = path.getFileSystem();
            fs.mkdirs(path);
            Path probe = new Path(path, ".streamsplit-write-check-" + UUID.randomUUID());
            try (var out = fs.create(probe, FileSystem.WriteMode.OVERWRITE)) {
                out.write(1);
            }
            fs.delete(probe, false);
        } catch (IOException | RuntimeException e) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    isDefault ? null : directory,
                    (isDefault
                                    ? "the default checkpoint directory " + directory + " (under java.io.tmpdir)"
                                    : directory)
                            + " cannot be written by the application: " + e.getMessage()
                            + "; the job keeps its checkpoints there",
                    "Point " + property + " at a directory the application can write (a persistent volume in"
                            + " production, e.g. file:///var/lib/app/checkpoints), or fix its permissions.",
                    e);
        }
    }

    /**
     * Gives the embedded job of {@code definition} (checkpoints on) its run's id and, unless {@code restore-path} is set, points
     * it at the newest checkpoint or savepoint an earlier run left (which {@code policy} may refuse). A job whose
     * checkpoints stay in memory is left alone.
     */
    public static void resume(JobDefinition definition, RetainedCheckpointPolicy policy) {
        String storage = definition.checkpointStorage();
        if (storage == null) {
            return;
        }
        Configuration configuration = definition.configuration();
        String jobName = definition.name();
        JobIdentity identity = JobIdentity.of(jobName);
        StorageStates.Found found = new StorageStates(
                        identity, storage, configuration.get(CheckpointingOptions.SAVEPOINT_DIRECTORY))
                .scan();
        RetainedState newest = found.newest() != null ? found.newest() : legacy(storage, jobName);
        if (configuration.contains(StateRecoveryOptions.SAVEPOINT_PATH)) {
            useGeneration(configuration, identity, Math.max(found.lastGeneration(), 1));
            LOG.info(
                    "Flink job '{}' starts from the configured restore path {}",
                    jobName,
                    configuration.get(StateRecoveryOptions.SAVEPOINT_PATH));
            return;
        }
        if (newest == null) {
            useGeneration(configuration, identity, found.lastGeneration() + 1);
            LOG.info(
                    "No retained checkpoint of Flink job '{}' in {}; sources start from their starting offsets",
                    jobName,
                    storage);
            return;
        }
        if (!policy.resume(asCheckpoint(newest))) {
            useGeneration(configuration, identity, found.lastGeneration() + 1);
            return;
        }
        useGeneration(configuration, identity, Math.max(found.lastGeneration(), 1));
        configuration.set(StateRecoveryOptions.SAVEPOINT_PATH, newest.path());

        LOG.info("Resuming Flink job '{}' from {}: sources continue from its offsets", jobName, newest.describe());
    }

    /**
     * Points the next run of an embedded job at the newest state in its storage now, not at what was newest when
     * the application started: a replica that stood by takes over from what the active one left. {@code live} is
     * the environment's configuration the next run is built from; a configured {@code restore-path} still wins.
     */
    public static void resumeNewest(
            JobDefinition definition, RetainedCheckpointPolicy policy, boolean restorePathSet, Configuration live) {
        if (definition.checkpointStorage() == null) {
            return;
        }
        Configuration fresh = new Configuration(definition.configuration());
        if (!restorePathSet) {
            fresh.removeConfig(StateRecoveryOptions.SAVEPOINT_PATH);
        }
        resume(
                new JobDefinition(
                        definition.name(),
                        fresh,
                        definition.checkpointStorage(),
                        definition.notRetained(),
                        definition.history()),
                policy);
        fresh.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
                .ifPresentOrElse(
                        path -> live.set(StateRecoveryOptions.SAVEPOINT_PATH, path),
                        () -> live.removeConfig(StateRecoveryOptions.SAVEPOINT_PATH));
        fresh.getOptional(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID)
                .ifPresent(id -> live.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, id));
    }

    /**
     * A takeover with the default checkpoint storage, local to each instance: what the active replica built is not
     * where this one looks. Said once per takeover, as a WARN: state is lost, not records.
     */
    public static void warnTakeoverWithOwnStorage(JobDefinition job) {
        LOG.warn(
                "This instance takes over Flink job '{}' from another replica, but its checkpoint storage is its own"
                        + " (the default, {}): it resumes from the newest state it finds there or, without any, from"
                        + " the sources' committed offsets, and the operator state the other replica built (keyed"
                        + " state, windows) is not carried over. Set streamsplit.flink.checkpointing.storage to"
                        + " storage every replica reaches (a shared volume, s3://...) to take over from the active"
                        + " replica's last checkpoint",
                job.name(),
                job.checkpointStorage() == null ? "in memory" : job.checkpointStorage());
    }

    /**
     * Deletes the states earlier runs left beyond {@code checkpointing.history.*}, just before this instance
     * submits the next run (never on a replica that stands by: the active one writes there), keeping the state
     * the run restores ({@code execution.state-recovery.path} in {@code live}) and the newest one.
     *
     * @return what is kept and what was deleted; {@code null} when the job's checkpoints stay in memory
     */
    public static StateHistory.@Nullable Pruned keepHistoryShort(JobDefinition definition, Configuration live) {
        String storage = definition.checkpointStorage();
        String nextRun = live.get(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID);
        if (storage == null || nextRun == null) {
            return null;
        }
        return new StateHistory(
                        JobIdentity.of(definition.name()),
                        storage,
                        live.get(CheckpointingOptions.SAVEPOINT_DIRECTORY),
                        definition.history())
                .prune(
                        live.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
                                .map(java.util.Set::of)
                                .orElse(java.util.Set.of()),
                        org.apache.flink.api.common.JobID.fromHexString(nextRun),
                        java.time.Instant.now());
    }

    private static void useGeneration(Configuration configuration, JobIdentity identity, long generation) {
        configuration.set(
                PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID,
                identity.jobId(generation).toHexString());
    }

    /** The newest checkpoint under the id a job had before runs got generations (StreamSplit 0.1 snapshots). */
    private static @Nullable RetainedState legacy(String storage, String jobName) {
        try {
            return RetainedCheckpoints.latest(storage, RetainedCheckpoints.jobId(jobName))
                    .map(checkpoint -> new RetainedState(
                            checkpoint.path(),
                            RetainedState.Kind.CHECKPOINT,
                            checkpoint.id(),
                            checkpoint.writtenAt(),
                            "found in checkpoint storage " + storage + " under the job's earlier id"))
                    .orElse(null);
        } catch (IOException e) {
            throw new InvalidStreamSplitConfigurationException(
                    STORAGE,
                    storage,
                    "the checkpoint directory cannot be read to resume the job: " + e.getMessage(),
                    "Fix the path or its permissions, or set streamsplit.flink.restore-path explicitly.",
                    e);
        }
    }

    private static RetainedCheckpoints.Checkpoint asCheckpoint(RetainedState state) {
        String directory = state.kind() == RetainedState.Kind.CHECKPOINT
                ? new Path(state.path()).getParent().toString()
                : state.path();
        return new RetainedCheckpoints.Checkpoint(state.path(), state.checkpointId(), state.completedAt(), directory);
    }

    /**
     * One WARN at start-up, naming the setting that prevents it, when a restart of the application would
     * read sources from their starting offsets again: the job's state is not kept ({@code notRetained}) and a
     * source does not start from its consumer group's committed offsets.
     *
     * @param startingOffsets each source's starting offsets, by name ("committed", "earliest", …)
     */
    static void warnIfRestartsReprocess(
            String jobName, @Nullable String notRetained, Map<String, String> startingOffsets) {
        if (notRetained == null) {
            return;
        }
        List<String> again = startingOffsets.entrySet().stream()
                .filter(source -> notRetained.startsWith("checkpointing is off")
                        || !source.getValue().equals("committed"))
                .map(source -> "'" + source.getKey() + "' (starting-offsets " + source.getValue() + ")")
                .toList();
        if (again.isEmpty()) {
            return;
        }
        LOG.warn(
                "Flink job '{}': every restart of the application reads source(s) {} from their starting offsets again:"
                        + " {}. {}",
                jobName,
                String.join(", ", again),
                notRetained,
                notRetained.startsWith("checkpointing is off")
                        ? "Turn checkpointing on (streamsplit.flink.checkpointing.enabled=true)."
                        : "Set " + STORAGE + " to a directory the application can write, or give each source a"
                                + " group-id (streamsplit.kafka.sources.<name>.group-id) so that it continues from its"
                                + " committed offsets.");
    }
}
