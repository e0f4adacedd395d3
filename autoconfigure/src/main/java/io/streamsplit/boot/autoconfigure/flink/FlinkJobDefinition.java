package io.streamsplit.boot.autoconfigure.flink;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.state.ShutdownJob;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/**
 * The job's name and its Flink configuration, worked out once from {@code streamsplit.flink.*}
 * (checked on the way) for the embedded cluster, the environment, the job and the sinks.
 *
 * @param name {@code streamsplit.flink.job-name}, else {@code spring.application.name}, else "streamsplit"
 * @param configuration the job-level Flink configuration, including where to resume from
 * @param checkpointStorage where the job's checkpoints are kept ({@code checkpointing.storage}, or the
 *     embedded default), {@code null} for the JobManager's memory
 * @param notRetained why a restart of the application would not find the embedded job's state ("checkpointing is
 *     off"), {@code null} when it would, on a cluster, and on the dev-mode broker (whose data goes with it)
 */
public record FlinkJobDefinition(
        String name,
        Configuration configuration,
        @Nullable String checkpointStorage,
        @Nullable String notRetained) {

    private static final String DEFAULT_JOB_NAME = "streamsplit";

    /** The job's name: {@code streamsplit.flink.job-name}, else {@code spring.application.name}, else "streamsplit". */
    public static String name(FlinkProperties flink, Environment environment) {
        return flink.getJobName() != null && !flink.getJobName().isBlank()
                ? flink.getJobName()
                : environment.getProperty("spring.application.name", DEFAULT_JOB_NAME);
    }

    /**
     * The definition of job {@code name}, its checkpoints kept in {@code storage} ({@code null}: memory, for
     * the reason {@code notRetained} when a restart would miss them).
     */
    public static FlinkJobDefinition of(
            FlinkProperties flink, String name, @Nullable String storage, @Nullable String notRetained) {
        Configuration configuration = FlinkConfigurationMapper.jobConfiguration(flink, name, storage);
        checkShutdown(flink, configuration);
        return new FlinkJobDefinition(name, configuration, storage, notRetained);
    }

    /** The shutdown settings fit together and the mode: keep needs a cluster, a savepoint needs a directory. */
    private static void checkShutdown(FlinkProperties flink, Configuration configuration) {
        FlinkShutdownProperties shutdown = flink.getShutdown();
        ShutdownJob job = shutdown.effectiveJob(flink.getMode());
        String property = "streamsplit.flink.shutdown.job";
        if (shutdown.getJob() != null
                && shutdown.effectiveJob(flink.getMode()) != ShutdownJob.SAVEPOINT
                && isSavepoint(shutdown)) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    yaml(shutdown.getJob()),
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

    @SuppressWarnings("deprecation")
    private static boolean isSavepoint(FlinkShutdownProperties shutdown) {
        return shutdown.isSavepoint();
    }

    private static String yaml(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
