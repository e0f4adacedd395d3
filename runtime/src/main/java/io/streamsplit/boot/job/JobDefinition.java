package io.streamsplit.boot.job;

import io.streamsplit.boot.job.state.StateHistory;
import org.apache.flink.configuration.Configuration;
import org.jspecify.annotations.Nullable;

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
 * @param history how many of the states its runs leave behind are kept ({@code checkpointing.history.*})
 */
public record JobDefinition(
        String name,
        Configuration configuration,
        @Nullable String checkpointStorage,
        @Nullable String notRetained,
        StateHistory.Limits history) {}
