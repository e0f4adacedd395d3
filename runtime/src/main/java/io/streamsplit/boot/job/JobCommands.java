package io.streamsplit.boot.job;

import io.streamsplit.boot.job.state.JobIdentity;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator does to the running job from the {@code streamsplit} endpoint: stop it with a
 * savepoint, start it again from there, rescale it (both, at another parallelism). On a cluster a
 * start is the job's next generation, labelled with the application's fingerprint, so the next start
 * of the application adopts it; embedded it is a new job on the MiniCluster.
 */
public final class JobCommands {

    private static final Logger LOG = LoggerFactory.getLogger(JobCommands.class);

    private final StreamSplitJob job;
    private final Duration stopTimeout;
    private final StreamExecutionEnvironment environment;
    /** The savepoint of a stop from the {@code streamsplit} endpoint, until the job is started again. */
    private volatile @Nullable String operatorSavepoint;

    JobCommands(StreamSplitJob job, Duration stopTimeout, StreamExecutionEnvironment environment) {
        this.job = job;
        this.stopTimeout = stopTimeout;
        this.environment = environment;
    }

    /** The savepoint the job was stopped with from the {@code streamsplit} endpoint, or {@code null} when not stopped. */
    public @Nullable String operatorSavepoint() {
        return operatorSavepoint;
    }

    /** The parallelism the job is (or will be) submitted with. */
    public int parallelism() {
        return environment.getParallelism();
    }

    /**
     * Stops the running job with a savepoint (its sinks commit what they wrote) and returns the path;
     * {@link #startFromSavepoint} resumes from it.
     */
    public synchronized String stopWithSavepoint(@Nullable String directory) throws Exception {
        CompletableFuture<JobClient> current = job.submission();
        if (operatorSavepoint != null || !current.isDone() || current.isCompletedExceptionally()) {
            throw new IllegalStateException(
                    operatorSavepoint != null ? "the job is already stopped" : "the job is not running");
        }
        JobClient client = current.join();
        Duration timeout = stopTimeout;
        job.markStopping(true);
        String path;
        try {
            path = client.stopWithSavepoint(false, directory, SavepointFormatType.CANONICAL)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            awaitEnd(client, timeout);
        } catch (Exception e) {
            job.markStopping(false);
            throw e;
        }
        operatorSavepoint = path;
        LOG.info(
                "Stopped Flink job '{}' ({}) with savepoint {} from the streamsplit endpoint; POST"
                        + " {\"operation\":\"start\"} resumes from it",
                job.jobName(),
                client.getJobID(),
                path);
        return path;
    }

    /**
     * Submits the job stopped by {@link #stopWithSavepoint} again, restored from its savepoint; with
     * {@code parallelism}, at that parallelism (Flink redistributes keyed state, the enumerator the splits).
     */
    public synchronized CompletableFuture<JobClient> startFromSavepoint(@Nullable Integer parallelism) {
        String savepoint = operatorSavepoint;
        if (savepoint == null) {
            throw new IllegalStateException("the job was not stopped from the endpoint; nothing to start");
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw new IllegalStateException("parallelism " + parallelism + " is not positive");
            }
            environment.setParallelism(parallelism);
        }
        boolean embedded = !job.onCluster();
        if (embedded) {
            // the executor takes the restore path from the environment's configuration, not from the graph
            ((Configuration) environment.getConfiguration()).set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamGraph graph = job.buildGraph();
        if (embedded) {
            graph.setJobId(nextRun()); // a run is a new Flink job
        }
        operatorSavepoint = null;
        LOG.info(
                "Starting Flink job '{}' again from savepoint {} (parallelism {})",
                job.jobName(),
                savepoint,
                environment.getParallelism());
        return job.startRun(graph, savepoint);
    }

    /**
     * The id of the embedded job's next run: the next generation of its {@link JobIdentity} when it has one
     * (checkpoints kept in storage, where the next start of the application looks for every generation's),
     * else a new id.
     */
    private JobID nextRun() {
        JobIdentity identity = JobIdentity.of(job.jobName());
        JobID previous = job.submission().isCompletedExceptionally()
                ? null
                : job.submission().join().getJobID();
        return previous != null && identity.owns(previous)
                ? identity.jobId(identity.generation(previous) + 1)
                : new JobID();
    }

    /** Stops the job with a savepoint and starts it again from there at {@code parallelism}; returns the savepoint. */
    public synchronized String rescale(int parallelism, @Nullable String directory) throws Exception {
        requireSlots(parallelism);
        String savepoint = stopWithSavepoint(directory);
        startFromSavepoint(parallelism);
        return savepoint;
    }

    /** Waits (up to {@code timeout}) until the run of {@code client} has ended, however it ends. */
    void awaitEnd(JobClient client, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!client.getJobStatus()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .isGloballyTerminalState()) {
            if (System.nanoTime() > deadline) {
                throw new java.util.concurrent.TimeoutException("the job did not end within " + timeout);
            }
            Thread.sleep(100);
        }
    }

    /**
     * The embedded cluster has a fixed number of slots: a parallelism above the slots this job can have
     * would leave it RUNNING with subtasks that never run. Refused before the job is stopped. A cluster may
     * grow (its resource manager starts TaskManagers on demand), so there health reports subtasks waiting.
     */
    private void requireSlots(int parallelism) {
        if (job.onCluster()) {
            return;
        }
        int slots = job.embeddedSlots();
        if (parallelism > slots) {
            throw new IllegalStateException("parallelism " + parallelism + " needs " + parallelism
                    + " task slots and the embedded cluster has " + slots
                    + "; rescale to at most " + slots + ", or start the application with"
                    + " streamsplit.flink.embedded.task-slots=" + parallelism);
        }
    }
}
