package io.streamsplit.boot.autoconfigure.flink;

import static io.streamsplit.boot.config.PropertyChecks.notNegative;
import static io.streamsplit.boot.config.PropertyChecks.positive;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.JobDefinition;
import io.streamsplit.boot.job.JobSettings;
import io.streamsplit.boot.job.state.RetainedCheckpoints;
import io.streamsplit.boot.job.state.RunSettings;
import io.streamsplit.boot.job.state.ShutdownJob;
import io.streamsplit.boot.job.state.StateHistory;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/**
 * Turns {@code streamsplit.flink.*} into a Flink {@link Configuration}, checking every value on the
 * way so a bad one fails startup with its property path. The raw {@code configuration} map is
 * applied last and wins.
 */
public final class FlinkConfigurationMapper {

    private static final String PREFIX = "streamsplit.flink.";

    private FlinkConfigurationMapper() {}

    /**
     * Job-level settings: parallelism, checkpointing, restarts, restore path, raw configuration.
     *
     * @param storage where checkpoints are kept: {@code streamsplit.flink.checkpointing.storage}, or the
     *     embedded default; {@code null} for the JobManager's memory (or, on a cluster, its own default)
     */
    static Configuration jobConfiguration(FlinkProperties flink, String jobName, @Nullable String storage) {
        Configuration config = new Configuration();
        config.set(PipelineOptions.NAME, jobName);
        if (flink.getParallelism() != null) {
            config.set(CoreOptions.DEFAULT_PARALLELISM, positive(PREFIX + "parallelism", flink.getParallelism()));
        } else if (flink.getMode() == FlinkMode.EMBEDDED) {
            // like Flink's local environment: one subtask per core
            config.set(CoreOptions.DEFAULT_PARALLELISM, Runtime.getRuntime().availableProcessors());
        }
        FlinkCheckpointingProperties checkpointing = flink.getCheckpointing();
        if (checkpointing.isEnabled()) {
            config.set(
                    CheckpointingOptions.CHECKPOINTING_INTERVAL,
                    positive(PREFIX + "checkpointing.interval", checkpointing.getInterval()));
            config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, checkpointing.getMode());
            config.set(
                    CheckpointingOptions.CHECKPOINTING_TIMEOUT,
                    positive(PREFIX + "checkpointing.timeout", checkpointing.getTimeout()));
            if (checkpointing.getMinPause() != null) {
                config.set(
                        CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS,
                        positive(PREFIX + "checkpointing.min-pause", checkpointing.getMinPause()));
            }
            if (storage != null) {
                config.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
                config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, storage);
            }
            if (storage != null || flink.getMode() != FlinkMode.EMBEDDED) {
                // kept after a cancel, a failure or an upgrade, so the next run can start from the newest one
                // (on a cluster also where the cluster's own configuration names the directory)
                config.set(
                        CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            }
        }
        FlinkRestartProperties restart = flink.getRestart();
        switch (restart.getStrategy()) {
            case NONE -> config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            case FIXED_DELAY -> {
                config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
                config.set(
                        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS,
                        notNegative(PREFIX + "restart.attempts", restart.getAttempts()));
                config.set(
                        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                        positive(PREFIX + "restart.delay", restart.getDelay()));
            }
            case EXPONENTIAL_DELAY -> {
                config.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
                config.set(
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF,
                        positive(PREFIX + "restart.delay", restart.getDelay()));
                config.set(
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF,
                        positive(PREFIX + "restart.max-delay", restart.getMaxDelay()));
            }
        }
        if (flink.getRestorePath() != null) {
            config.set(StateRecoveryOptions.SAVEPOINT_PATH, flink.getRestorePath());
        }
        String savepoints = savepointDirectory(flink, storage);
        if (savepoints != null) {
            config.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepoints);
        }
        positive(PREFIX + "shutdown.timeout", flink.getShutdown().getTimeout());
        applyRaw(config, flink.getConfiguration());
        return config;
    }

    /**
     * Where savepoints go: {@code streamsplit.flink.shutdown.savepoint-directory}, else beside the
     * checkpoints in {@code <storage>/savepoints}; {@code null} when neither is there.
     */
    public static @Nullable String savepointDirectory(FlinkProperties flink, @Nullable String storage) {
        String configured = flink.getShutdown().getSavepointDirectory();
        if (configured != null) {
            return configured;
        }
        if (storage == null || !flink.getCheckpointing().isEnabled()) {
            return null;
        }
        return RetainedCheckpoints.savepointsUnder(storage);
    }

    /** Cluster-level settings of the embedded MiniCluster: memory, slots, REST port. */
    public static Configuration embeddedClusterConfiguration(FlinkProperties flink, Configuration jobConfiguration) {
        FlinkEmbeddedProperties embedded = flink.getEmbedded();
        Configuration config = new Configuration();
        config.set(
                TaskManagerOptions.MANAGED_MEMORY_SIZE,
                MemorySize.parse(positive(
                                PREFIX + "embedded.managed-memory",
                                embedded.getManagedMemory().toBytes()) + "b"));
        int slots = embeddedSlots(flink, jobConfiguration.get(CoreOptions.DEFAULT_PARALLELISM));
        MemorySize network =
                MemorySize.parse(positive(
                                PREFIX + "embedded.network-memory",
                                embedded.getNetworkMemory().toBytes()) + "b");
        config.set(TaskManagerOptions.NETWORK_MEMORY_MIN, network);
        config.set(TaskManagerOptions.NETWORK_MEMORY_MAX, network);
        // no Kerberos/Hadoop delegation tokens in-process; Flink's token manager would only warn that it has none
        config.set(SecurityOptions.DELEGATION_TOKENS_ENABLED, false);
        // the REST API caches a job's state for this long; health and the split endpoint read it (Flink: 3 s)
        config.set(WebOptions.REFRESH_INTERVAL, Duration.ofSeconds(1));
        config.set(RestOptions.ADDRESS, "localhost");
        config.set(RestOptions.BIND_ADDRESS, "localhost");
        if (embedded.getRestPort() != null) {
            int port = notNegative(PREFIX + "embedded.rest-port", embedded.getRestPort());
            config.set(RestOptions.PORT, port);
            config.set(RestOptions.BIND_PORT, String.valueOf(port));
        } else {
            config.set(RestOptions.BIND_PORT, "0");
        }
        config.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        config.addAll(jobConfiguration);
        return config;
    }

    /** What the job's lifecycle reads of {@code flink}, for a job of {@code parallelism} defined as {@code job}. */
    public static JobSettings jobSettings(FlinkProperties flink, int parallelism, JobDefinition job) {
        return new JobSettings(
                flink.isEnabled(),
                flink.getMode(),
                flink.getShutdown().effectiveJob(flink.getMode(), stateKept(flink, job.configuration())),
                flink.getCheckpointing().isEnabled(),
                flink.getCheckpointing().isFirstOnStart(),
                flink.getRemote().getWatchInterval(),
                embeddedSlots(flink, parallelism),
                runSettings(flink));
    }

    /** How {@code flink} has runs of the job start and stop. */
    public static RunSettings runSettings(FlinkProperties flink) {
        return new RunSettings(
                flink.getUpgradeMode(),
                flink.getRestorePath(),
                flink.getShutdown().getTimeout(),
                null,
                flink.isAllowDowngrade(),
                io.streamsplit.boot.job.state.StateHistory.Limits.DEFAULT);
    }

    /** The embedded cluster's task slots: {@code embedded.task-slots}, else the job's parallelism. */
    public static int embeddedSlots(FlinkProperties flink, int parallelism) {
        Integer slots = flink.getEmbedded().getTaskSlots();
        return slots != null ? positive(PREFIX + "embedded.task-slots", slots) : parallelism;
    }

    private static void applyRaw(Configuration config, Map<String, String> raw) {
        raw.forEach((key, value) -> {
            if (value == null) {
                throw new InvalidStreamSplitConfigurationException(
                        PREFIX + "configuration." + key,
                        null,
                        "a Flink configuration entry has no value",
                        "Give it a value or remove it.");
            }
            config.setString(key, value);
        });
    }

    private static final String DEFAULT_JOB_NAME = "streamsplit";

    /** The job's name: {@code streamsplit.flink.job-name}, else {@code spring.application.name}, else "streamsplit". */
    public static String jobName(FlinkProperties flink, Environment environment) {
        return flink.getJobName() != null && !flink.getJobName().isBlank()
                ? flink.getJobName()
                : environment.getProperty("spring.application.name", DEFAULT_JOB_NAME);
    }

    /**
     * The definition of job {@code name}, its checkpoints kept in {@code storage} ({@code null}: memory, for
     * the reason {@code notRetained} when a restart would miss them).
     */
    public static JobDefinition jobDefinition(
            FlinkProperties flink, String name, @Nullable String storage, @Nullable String notRetained) {
        Configuration configuration = jobConfiguration(flink, name, storage);
        checkShutdown(flink, configuration);
        FlinkCheckpointingProperties.History history = flink.getCheckpointing().getHistory();
        return new JobDefinition(
                name,
                configuration,
                storage,
                notRetained,
                new StateHistory.Limits(
                        positive(PREFIX + "checkpointing.history.max-count", history.getMaxCount()),
                        positive(PREFIX + "checkpointing.history.max-age", history.getMaxAge())));
    }

    /** The shutdown settings fit together and the mode: keep needs a cluster, a savepoint needs a directory. */
    private static void checkShutdown(FlinkProperties flink, Configuration configuration) {
        FlinkShutdownProperties shutdown = flink.getShutdown();
        ShutdownJob job = shutdown.effectiveJob(flink.getMode(), stateKept(flink, configuration));
        String property = "streamsplit.flink.shutdown.job";
        if (shutdown.getJob() != null && job != ShutdownJob.SAVEPOINT && isSavepoint(shutdown)) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    yamlOf(shutdown.getJob()),
                    "streamsplit.flink.shutdown.savepoint is also true, which asks for a savepoint",
                    "Remove streamsplit.flink.shutdown.savepoint (shutdown.job replaces it).");
        }
        if (job == ShutdownJob.KEEP && flink.getMode() == FlinkMode.EMBEDDED) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    "keep",
                    "an embedded job runs in the application's own MiniCluster and ends with it",
                    "Use shutdown.job cancel or savepoint in embedded mode, or run the job on a cluster (streamsplit.flink"
                            + ".mode=remote), where it can outlive the application.");
        }
        if (job == ShutdownJob.SAVEPOINT && !configuration.contains(CheckpointingOptions.SAVEPOINT_DIRECTORY)) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.shutdown.savepoint-directory",
                    null,
                    "the job is stopped with a savepoint on shutdown but there is no directory to write the savepoint"
                            + " to (no savepoint-directory, and no checkpoint storage to put it beside)",
                    "Set streamsplit.flink.shutdown.savepoint-directory (e.g. file:///var/lib/app/savepoints), or"
                            + " streamsplit.flink.checkpointing.storage (savepoints then go to <storage>/savepoints).");
        }
    }

    /**
     * Whether a job of {@code configuration} keeps checkpoints where the next start finds them, with a directory
     * for savepoints: then a savepoint taken at shutdown is where the next start resumes.
     */
    private static boolean stateKept(FlinkProperties flink, Configuration configuration) {
        return flink.getCheckpointing().isEnabled()
                && configuration.contains(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                && configuration.contains(CheckpointingOptions.SAVEPOINT_DIRECTORY);
    }

    @SuppressWarnings("deprecation")
    private static boolean isSavepoint(FlinkShutdownProperties shutdown) {
        return shutdown.isSavepoint();
    }

    private static String yamlOf(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
