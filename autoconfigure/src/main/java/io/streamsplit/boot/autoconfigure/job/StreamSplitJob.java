package io.streamsplit.boot.autoconfigure.job;

import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import io.streamsplit.boot.autoconfigure.flink.remote.ClusterClasses;
import io.streamsplit.boot.autoconfigure.flink.remote.FlinkVersionCheck;
import io.streamsplit.pipeline.PipelineContext;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.ExceptionUtils;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * The application's Flink job. When the context starts it calls every {@link StreamSplitPipeline}
 * bean (a failure there fails startup, naming the bean), then submits the job on a background
 * thread so the application keeps starting and serving. On shutdown it stops the job: with a
 * savepoint when {@code streamsplit.flink.shutdown.savepoint} is on, else by cancelling it.
 */
public class StreamSplitJob implements SmartLifecycle {

    /** Starts after ordinary beans, stops before the embedded cluster and dev broker are destroyed. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

    private static final Logger LOG = LoggerFactory.getLogger(StreamSplitJob.class);

    private final FlinkProperties flink;
    private final String jobName;
    private final StreamExecutionEnvironment environment;
    private final ListableBeanFactory beanFactory;
    private final Supplier<PipelineContext> contextFactory;
    private final String target;
    private volatile CompletableFuture<JobClient> submission = new CompletableFuture<>();
    /** The savepoint of a stop from the {@code streamsplit} endpoint, until the job is started again. */
    private volatile @Nullable String operatorSavepoint;

    private final @Nullable FlinkRestClient rest;
    private final @Nullable JobFailures failures;
    private volatile boolean running;
    private volatile boolean stopping;

    public StreamSplitJob(
            FlinkProperties flink,
            String jobName,
            StreamExecutionEnvironment environment,
            ListableBeanFactory beanFactory,
            Supplier<PipelineContext> contextFactory,
            String target,
            @Nullable FlinkRestClient rest,
            @Nullable JobFailures failures) {
        this.rest = rest;
        this.failures = failures;
        this.flink = flink;
        this.jobName = jobName;
        this.environment = environment;
        this.beanFactory = beanFactory;
        this.contextFactory = contextFactory;
        this.target = target;
    }

    /** The job name ({@code streamsplit.flink.job-name}, else {@code spring.application.name}). */
    public String jobName() {
        return jobName;
    }

    /**
     * The current run's submission: completes with the job's client once submitted; fails if the
     * submission failed or nothing was submitted. A job stopped and started again is a new run.
     */
    public CompletableFuture<JobClient> submission() {
        return submission;
    }

    /** The savepoint the job was stopped with from the {@code streamsplit} endpoint, or {@code null} when not stopped. */
    public @Nullable String operatorSavepoint() {
        return operatorSavepoint;
    }

    /**
     * Stops the running job with a savepoint (its sinks commit what they wrote) and returns the path;
     * {@link #startFromSavepoint()} resumes from it.
     */
    public synchronized String stopWithSavepoint(@Nullable String directory) throws Exception {
        CompletableFuture<JobClient> current = submission;
        if (operatorSavepoint != null || !current.isDone() || current.isCompletedExceptionally()) {
            throw new IllegalStateException(
                    operatorSavepoint != null ? "the job is already stopped" : "the job is not running");
        }
        JobClient client = current.join();
        Duration timeout = flink.getShutdown().getTimeout();
        stopping = true;
        String path;
        try {
            path = client.stopWithSavepoint(false, directory, SavepointFormatType.CANONICAL)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            client.getJobExecutionResult()
                    .handle((result, failure) -> null)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            stopping = false;
            throw e;
        }
        operatorSavepoint = path;
        LOG.info(
                "Stopped Flink job '{}' ({}) with savepoint {} from the streamsplit endpoint; POST"
                        + " {\"operation\":\"start\"} resumes from it",
                jobName,
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
        requireRestartable(savepoint);
        if (parallelism != null) {
            if (parallelism < 1) {
                throw new IllegalStateException("parallelism " + parallelism + " is not positive");
            }
            environment.setParallelism(parallelism);
        }
        // the executor takes the restore path from the environment's configuration, not from the graph
        ((Configuration) environment.getConfiguration()).set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamGraph graph = buildGraph(beanFactory.getBeansOfType(StreamSplitPipeline.class));
        graph.setJobId(new JobID()); // a run is a new Flink job
        CompletableFuture<JobClient> run = new CompletableFuture<>();
        submission = run;
        stopping = false;
        operatorSavepoint = null;
        LOG.info(
                "Starting Flink job '{}' again from savepoint {} (parallelism {})",
                jobName,
                savepoint,
                environment.getParallelism());
        Thread submitter = new Thread(() -> submit(graph, run), "streamsplit-submit-" + jobName);
        submitter.setDaemon(true);
        submitter.start();
        return submission;
    }

    /** Stops the job with a savepoint and starts it again from there at {@code parallelism}; returns the savepoint. */
    public synchronized String rescale(int parallelism, @Nullable String directory) throws Exception {
        requireRestartable("<the savepoint>");
        String savepoint = stopWithSavepoint(directory);
        startFromSavepoint(parallelism);
        return savepoint;
    }

    /** The parallelism the job is (or will be) submitted with. */
    public int parallelism() {
        return environment.getParallelism();
    }

    private void requireRestartable(String savepoint) {
        if (flink.getCheckpointing().getStorage() != null) {
            // the job keeps one id across runs so that a restarted app finds its checkpoints; a second run
            // in this app would need another id, and the next app start would resume from the older one
            throw new IllegalStateException("with streamsplit.flink.checkpointing.storage the job is resumed by"
                    + " restarting the application with streamsplit.flink.restore-path=" + savepoint);
        }
    }

    /** Whether the application is stopping the job (so a CANCELED status is expected, not a failure). */
    public boolean isStopping() {
        return stopping;
    }

    @Override
    public void start() {
        if (!flink.isEnabled()) {
            LOG.info("streamsplit.flink.enabled=false: Flink job '{}' is not submitted", jobName);
            submission.completeExceptionally(new IllegalStateException("streamsplit.flink.enabled is false"));
            running = true;
            return;
        }
        Map<String, StreamSplitPipeline> pipelines = beanFactory.getBeansOfType(StreamSplitPipeline.class);
        if (pipelines.isEmpty()) {
            LOG.info("No StreamSplitPipeline beans: no Flink job to submit. Define a @Bean StreamSplitPipeline to"
                    + " build one from the configured sources.");
            submission.completeExceptionally(new IllegalStateException("no StreamSplitPipeline beans are defined"));
            running = true;
            return;
        }
        StreamGraph graph = buildGraph(pipelines);
        ClusterClasses cluster =
                beanFactory.getBeanProvider(ClusterClasses.class).getIfAvailable();
        if (cluster != null) {
            cluster.requireLoadable(graph);
        }
        CompletableFuture<JobClient> run = submission;
        Thread submitter = new Thread(() -> submit(graph, run), "streamsplit-submit-" + jobName);
        submitter.setDaemon(true);
        submitter.start();
        running = true;
    }

    private StreamGraph buildGraph(Map<String, StreamSplitPipeline> pipelines) {
        List<Map.Entry<String, StreamSplitPipeline>> ordered = new ArrayList<>(pipelines.entrySet());
        ordered.sort((a, b) -> AnnotationAwareOrderComparator.INSTANCE.compare(a.getValue(), b.getValue()));
        PipelineContext context = contextFactory.get();
        for (Map.Entry<String, StreamSplitPipeline> pipeline : ordered) {
            try {
                pipeline.getValue().build(context);
            } catch (Exception e) {
                throw new IllegalStateException(
                        "StreamSplitPipeline bean '" + pipeline.getKey() + "' failed to build the Flink job: "
                                + e.getMessage(),
                        e);
            }
        }
        StreamGraph graph;
        try {
            graph = environment.getStreamGraph();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    "The StreamSplitPipeline beans " + pipelines.keySet()
                            + " added no operator with an output to the job; write the streams to a sink"
                            + " (pipeline.sink(name, stream)) or print them.",
                    e);
        }
        graph.setJobName(jobName);
        return graph;
    }

    private void submit(StreamGraph graph, CompletableFuture<JobClient> run) {
        try {
            if (flink.getMode() == FlinkProperties.Mode.REMOTE) {
                FlinkVersionCheck.requireCompatible(URI.create("http://"
                        + flink.getRemote().getHost() + ":" + flink.getRemote().getPort()));
            }
            JobClient client = environment.executeAsync(graph);
            LOG.info("Submitted Flink job '{}' ({}) to {}", jobName, client.getJobID(), target);
            run.complete(client);
            JobFailureReporter reporter = failures == null || rest == null
                    ? null
                    : new JobFailureReporter(jobName, client.getJobID().toString(), rest, failures);
            client.getJobExecutionResult().whenComplete((result, failure) -> {
                if (reporter != null) {
                    reporter.close();
                }
                if (failure != null && !stopping) {
                    String text = ExceptionUtils.stringifyException(failure);
                    String cause = failures != null ? failures.describe(text, null) : JobFailures.rootCause(text) + ".";
                    LOG.error(
                            "Flink job '{}' ({}) failed for good after its restarts: {} The application keeps"
                                    + " running without it; fix the cause and restart the application.",
                            jobName,
                            client.getJobID(),
                            cause);
                    LOG.debug("Flink job '{}' failure:", jobName, failure);
                } else if (failure == null && !stopping) {
                    LOG.info(
                            "Flink job '{}' ({}) finished (all sources are bounded and fully read)",
                            jobName,
                            client.getJobID());
                }
            });
        } catch (Exception e) {
            run.completeExceptionally(e);
            LOG.error(
                    "Could not submit Flink job '{}' to {}: {}. The application keeps running without the job.",
                    jobName,
                    target,
                    rootMessage(e),
                    e);
        }
    }

    @Override
    public void stop() {
        stopJob();
        running = false;
    }

    @Override
    public void stop(Runnable callback) {
        Thread stopper = new Thread(
                () -> {
                    try {
                        stop();
                    } finally {
                        callback.run();
                    }
                },
                "streamsplit-stop-" + jobName);
        stopper.setDaemon(true);
        stopper.start();
    }

    private void stopJob() {
        stopping = true;
        Duration timeout = flink.getShutdown().getTimeout();
        JobClient client;
        try {
            client = submission.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception notSubmitted) {
            return;
        }
        try {
            JobStatus status = client.getJobStatus().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (status.isGloballyTerminalState()) {
                return;
            }
            if (flink.getShutdown().isSavepoint()) {
                String path = client.stopWithSavepoint(
                                false, flink.getShutdown().getSavepointDirectory(), SavepointFormatType.CANONICAL)
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info(
                        "Stopped Flink job '{}' ({}) with savepoint {}; start from it with"
                                + " streamsplit.flink.restore-path={}",
                        jobName,
                        client.getJobID(),
                        path,
                        path);
            } else {
                client.cancel().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                // cancel() returns once Flink accepted it; wait until the tasks are really gone
                client.getJobExecutionResult()
                        .handle((result, failure) -> null)
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info("Cancelled Flink job '{}' ({})", jobName, client.getJobID());
            }
        } catch (Exception e) {
            LOG.warn(
                    "Could not stop Flink job '{}' ({}) within {}: {}",
                    jobName,
                    client.getJobID(),
                    timeout,
                    rootMessage(e),
                    e);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /**
     * Not paused with its context: Spring's test context cache pauses contexts it is not using, and
     * cancelling a Flink job loses its state; resuming would start it over and repeat its output.
     */
    @Override
    public boolean isPauseable() {
        return false;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
