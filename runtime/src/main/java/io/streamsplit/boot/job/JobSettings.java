package io.streamsplit.boot.job;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.state.RunSettings;
import io.streamsplit.boot.job.state.ShutdownJob;
import java.time.Duration;

/**
 * What the job's lifecycle reads of {@code streamsplit.flink.*}, decided once by the auto-configuration: the
 * runtime takes these values, never the properties.
 *
 * <pre>{@code
 * JobSettings settings = new JobSettings(true, FlinkMode.EMBEDDED, ShutdownJob.CANCEL, true, false,
 *         Duration.ofSeconds(5), 2, new RunSettings(UpgradeMode.SAVEPOINT, null, Duration.ofSeconds(30)));
 * }</pre>
 *
 * @param enabled whether the job is submitted when the application starts ({@code streamsplit.flink.enabled})
 * @param mode where the job runs ({@code streamsplit.flink.mode})
 * @param onShutdown what the application's stop does to the job (the effective {@code streamsplit.flink.shutdown.job})
 * @param checkpointing whether the job takes checkpoints ({@code streamsplit.flink.checkpointing.enabled})
 * @param firstCheckpointOnStart whether a checkpoint is taken as soon as the job runs
 *     ({@code streamsplit.flink.checkpointing.first-on-start})
 * @param watchInterval how often the application looks at its job on a cluster ({@code streamsplit.flink.remote.watch-interval})
 * @param embeddedSlots the embedded cluster's task slots ({@code streamsplit.flink.embedded.task-slots}, else the
 *     job's parallelism)
 * @param runs how runs start and stop
 */
public record JobSettings(
        boolean enabled,
        FlinkMode mode,
        ShutdownJob onShutdown,
        boolean checkpointing,
        boolean firstCheckpointOnStart,
        Duration watchInterval,
        int embeddedSlots,
        RunSettings runs) {

    /**
     * Fails when Flink started this application (application mode) to run its job and there is none to run:
     * {@code property} = {@code value} is why.
     */
    public void requireJob(String property, Object value, String why) {
        if (mode == FlinkMode.APPLICATION) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    value,
                    "Flink started this application (application mode) to run its job, but " + why,
                    "Define a @Bean StreamSplitPipeline that builds the job from the configured sources and sinks, and"
                            + " leave streamsplit.flink.enabled at true.");
        }
    }
}
