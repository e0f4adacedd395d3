package io.streamsplit.boot.autoconfigure.flink;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.springframework.core.env.Environment;

/**
 * The job's name and its Flink configuration, worked out once from {@code streamsplit.flink.*}
 * (checked on the way) for the embedded cluster, the environment, the job and the sinks.
 *
 * @param name {@code streamsplit.flink.job-name}, else {@code spring.application.name}, else "streamsplit"
 * @param configuration the job-level Flink configuration, including where to resume from
 */
public record FlinkJobDefinition(String name, Configuration configuration) {

    private static final String DEFAULT_JOB_NAME = "streamsplit";

    public static FlinkJobDefinition of(FlinkProperties flink, Environment environment) {
        return of(flink, environment, RetainedCheckpointPolicy.ALWAYS);
    }

    /** With {@code policy} deciding whether a retained checkpoint is resumed from. */
    public static FlinkJobDefinition of(
            FlinkProperties flink, Environment environment, RetainedCheckpointPolicy policy) {
        String name = flink.getJobName() != null && !flink.getJobName().isBlank()
                ? flink.getJobName()
                : environment.getProperty("spring.application.name", DEFAULT_JOB_NAME);
        Configuration configuration = FlinkConfigurationMapper.jobConfiguration(flink, name);
        checkShutdown(flink, configuration);
        if (flink.getRestorePath() != null) {
            policy.checkRestorePath(flink.getRestorePath());
        }
        RetainedCheckpoints.resume(flink, name, configuration, policy);
        return new FlinkJobDefinition(name, configuration);
    }

    /** The shutdown settings fit together and the mode: keep needs a cluster, a savepoint needs a directory. */
    private static void checkShutdown(FlinkProperties flink, Configuration configuration) {
        FlinkShutdownProperties shutdown = flink.getShutdown();
        FlinkShutdownProperties.ShutdownJob job = shutdown.effectiveJob(flink.getMode());
        String property = "streamsplit.flink.shutdown.job";
        if (shutdown.getJob() != null
                && shutdown.effectiveJob(flink.getMode()) != FlinkShutdownProperties.ShutdownJob.SAVEPOINT
                && isSavepoint(shutdown)) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    yaml(shutdown.getJob()),
                    "streamsplit.flink.shutdown.savepoint is also true, which asks for a savepoint",
                    "Remove streamsplit.flink.shutdown.savepoint (shutdown.job replaces it).");
        }
        if (job == FlinkShutdownProperties.ShutdownJob.KEEP && flink.getMode() == FlinkProperties.Mode.EMBEDDED) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    "keep",
                    "an embedded job runs in the application's own MiniCluster and ends with it",
                    "Use shutdown.job cancel or savepoint in embedded mode, or run the job on a cluster (streamsplit.flink"
                            + ".mode=remote), where it can outlive the application.");
        }
        if (job == FlinkShutdownProperties.ShutdownJob.SAVEPOINT
                && !configuration.contains(CheckpointingOptions.SAVEPOINT_DIRECTORY)) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.shutdown.savepoint-directory",
                    null,
                    "the job is stopped with a savepoint on shutdown but there is no directory to write the savepoint to",
                    "Set streamsplit.flink.shutdown.savepoint-directory (e.g. file:///var/lib/app/savepoints).");
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
