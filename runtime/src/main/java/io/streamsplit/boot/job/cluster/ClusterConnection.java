package io.streamsplit.boot.job.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.client.deployment.ClusterClientJobClientAdapter;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.jspecify.annotations.Nullable;

/**
 * Submits runs of the job to a session cluster and gives clients of runs already there, through
 * Flink's own REST client. It does what the remote executor does, but with the job id, the restore
 * path and the labels chosen by the caller, and without the executor's ERROR line when the cluster
 * refuses a run another instance submitted first: that is a lost race here, not a failure.
 */
final class ClusterConnection {

    private static final Duration SUBMIT_TIMEOUT = Duration.ofMinutes(5);

    private final Configuration configuration;
    private final ClassLoader classLoader;

    /**
     * @param configuration the remote environment's configuration: REST address, shipped jars, restore mode
     * @param classLoader the application's class loader, to read a failed run's cause
     */
    ClusterConnection(Configuration configuration, ClassLoader classLoader) {
        this.configuration = configuration;
        this.classLoader = classLoader;
    }

    /** A client of run {@code id}, already on the cluster. */
    JobClient client(JobID id) {
        return new ClusterClientJobClientAdapter<>(this::newClient, id, classLoader);
    }

    /**
     * Submits {@code graph} as run {@code id}, from {@code restorePath} when not {@code null}, with
     * {@code labels}; returns once the cluster initialized it (a restore that fails fails here).
     */
    JobClient submit(StreamGraph graph, JobID id, @Nullable String restorePath, JobLabels labels) throws Exception {
        graph.setJobId(id);
        StreamGraph prepared = PipelineExecutorUtils.getStreamGraph(graph, configuration);
        prepared.setSavepointRestoreSettings(
                restorePath == null
                        ? SavepointRestoreSettings.none()
                        : SavepointRestoreSettings.forPath(
                                restorePath,
                                configuration.get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE),
                                configuration.get(StateRecoveryOptions.RESTORE_MODE)));
        Map<String, String> parameters = new HashMap<>(
                prepared.getExecutionConfig().getGlobalJobParameters().toMap());
        parameters.putAll(labels.values());
        prepared.getExecutionConfig().setGlobalJobParameters(Configuration.fromMap(parameters));
        prepared.serializeUserDefinedInstances();
        try (ClusterClient<StandaloneClusterId> client = newClient()) {
            client.submitJob(prepared).get(SUBMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            ClientUtils.waitUntilJobInitializationFinished(
                    () -> client.getJobStatus(id).get(),
                    () -> client.requestJobResult(id).get(),
                    classLoader);
        }
        return client(id);
    }

    private ClusterClient<StandaloneClusterId> newClient() {
        try {
            return new RestClusterClient<>(configuration, StandaloneClusterId.getInstance());
        } catch (Exception e) {
            throw new IllegalStateException("Could not create a client of the Flink cluster: " + e.getMessage(), e);
        }
    }
}
