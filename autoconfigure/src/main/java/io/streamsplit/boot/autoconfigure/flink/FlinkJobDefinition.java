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
        if (flink.getShutdown().isSavepoint() && !configuration.contains(CheckpointingOptions.SAVEPOINT_DIRECTORY)) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.shutdown.savepoint-directory",
                    null,
                    "streamsplit.flink.shutdown.savepoint is true but there is no directory to write the savepoint to",
                    "Set streamsplit.flink.shutdown.savepoint-directory (e.g. file:///var/lib/app/savepoints).");
        }
        RetainedCheckpoints.resume(flink, name, configuration, policy);
        return new FlinkJobDefinition(name, configuration);
    }
}
