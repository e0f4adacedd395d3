package io.streamsplit.boot.job;

import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.cluster.ClusterJobController;
import io.streamsplit.boot.job.cluster.ClusterJobKeeper;
import io.streamsplit.boot.job.cluster.ClusterRun;
import io.streamsplit.boot.job.cluster.ClusterStart;
import io.streamsplit.boot.job.cluster.JobFingerprint;
import io.streamsplit.boot.job.failure.JobFailureHistory;
import io.streamsplit.boot.job.failure.JobFailureLog;
import io.streamsplit.boot.job.failure.JobFailureReporter;
import io.streamsplit.boot.job.failure.JobFailures;
import io.streamsplit.boot.job.failure.RunOutcomes;
import io.streamsplit.boot.job.replica.ReplicaElection;
import io.streamsplit.boot.job.state.RetainedState;
import io.streamsplit.boot.job.state.StateHistory;
import io.streamsplit.boot.job.state.StatePlan;
import io.streamsplit.boot.job.step.JobSteps;
import io.streamsplit.pipeline.PipelineContext;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.ExceptionUtils;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The application's Flink job. When the context starts it calls every {@link StreamSplitPipeline}
 * bean (a failure there fails startup, naming the bean). On the embedded cluster it then submits the
 * job on a background thread, so the application keeps starting. On a cluster it acts as the job's
 * controller before the context is ready ({@link ClusterJobController}): it adopts the job's run when
 * it runs unchanged, upgrades it when the application changed, or starts it from the newest state it
 * left; what cannot be done fails startup. While the application runs it keeps the job there
 * ({@link ClusterJobKeeper}): a run the cluster forgot is put back, a run another instance submitted is
 * followed. On shutdown it does what
 * {@code streamsplit.flink.shutdown.job} says: keep the job running (on a cluster, by default), stop
 * it with a savepoint, or cancel it. Operator commands (stop, start, rescale) are {@link JobCommands}.
 */
public class StreamSplitJob implements SmartLifecycle {

    /** Starts after ordinary beans, stops before the embedded cluster and dev broker are destroyed. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

    private static final Logger LOG = LoggerFactory.getLogger(StreamSplitJob.class);
    /** How long a replica that stood down waits for its job's cancel. */
    private static final Duration STAND_DOWN = Duration.ofSeconds(10);

    private final JobSettings settings;
    private final JobDefinition definition;
    private volatile StateHistory.@Nullable Pruned stateHistory;
    private final String jobName;
    private final @Nullable String notRetained;
    private final StreamExecutionEnvironment environment;
    private final ListableBeanFactory beanFactory;
    private final String target;
    private final @Nullable FlinkRestClient rest;
    private final @Nullable JobFailures failures;
    private final @Nullable JobFailureHistory failureHistory;
    private final @Nullable ClusterJobController cluster;
    private final @Nullable ClusterStart clusterStart;
    private final JobCommands commands;
    private final PipelineGraphs graphs;
    private final RunOutcomes outcomes;
    private final int embeddedSlots;

    private volatile CompletableFuture<JobClient> submission = new CompletableFuture<>();
    private volatile @Nullable ClusterRun clusterRun;
    private volatile JobFingerprint.@Nullable Parts fingerprint;
    private volatile @Nullable JobFailureReporter reporter;
    private final JobFailureLog failureLog = new JobFailureLog();
    private volatile @Nullable ClusterJobKeeper keeper;
    private volatile boolean running;
    private volatile boolean stopping;
    private volatile boolean nothingToRun;
    private boolean dryRun;
    private volatile @Nullable String dryRunReport;
    private @Nullable Function<ReplicaElection.Listener, ReplicaElection> electionFactory;
    private volatile @Nullable ReplicaElection election;
    private volatile java.util.function.@Nullable Consumer<Boolean> beforeElectedRun;

    /**
     * Keeps an application without a web server running until it is stopped. On a cluster it holds no thread
     * of the job; embedded, the MiniCluster's threads are daemons until the tasks' threads start (and after a
     * job failed for good), so between the submission and the tasks such a JVM would exit with the job
     * (seen on a loaded CI machine: the JVM's shutdown began 31 ms after "Submitted Flink job").
     */
    private final Thread keepAlive = new Thread(
            () -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException stopped) {
                    Thread.currentThread().interrupt();
                }
            },
            "streamsplit-keep-alive");

    /**
     * @param failureHistory where the job's failures are read (in-process embedded, REST remote); {@code null}:
     *     not reported
     * @param cluster the job's controller on a cluster (remote mode), {@code null} on the embedded cluster
     * @param clusterStart the checks and the fingerprint before the cluster is touched (remote mode)
     */
    public StreamSplitJob(
            JobSettings settings,
            JobDefinition definition,
            StreamExecutionEnvironment environment,
            ListableBeanFactory beanFactory,
            Supplier<PipelineContext> contextFactory,
            String target,
            @Nullable FlinkRestClient rest,
            @Nullable JobFailures failures,
            @Nullable JobFailureHistory failureHistory,
            @Nullable ClusterJobController cluster,
            @Nullable ClusterStart clusterStart) {
        this.rest = rest;
        this.failures = failures;
        this.failureHistory = failureHistory;
        this.settings = settings;
        this.definition = definition;
        this.jobName = definition.name();
        this.notRetained = definition.notRetained();
        this.environment = environment;
        this.beanFactory = beanFactory;
        this.target = target;
        this.cluster = cluster;
        this.clusterStart = clusterStart;
        this.commands = new JobCommands(this, settings.runs().stopTimeout(), environment);
        this.graphs = new PipelineGraphs(jobName, environment, contextFactory, cluster == null);
        this.outcomes = new RunOutcomes(jobName, failures);
        this.embeddedSlots = settings.embeddedSlots();
    }

    /** Where the job runs, for messages: "the Flink cluster at host:port", "the embedded Flink MiniCluster". */
    public String target() {
        return target;
    }

    /** The job name ({@code streamsplit.flink.job-name}, else {@code spring.application.name}). */
    public String jobName() {
        return jobName;
    }

    /**
     * The current run's submission: completes with the job's client once submitted (or adopted on a
     * cluster); fails if the submission failed or nothing was submitted. A job stopped and started again
     * is a new run.
     */
    public CompletableFuture<JobClient> submission() {
        return submission;
    }

    /** The run on the cluster this instance is attached to and how; {@code null} on the embedded cluster. */
    public @Nullable ClusterRun clusterRun() {
        return clusterRun;
    }

    /** The steps ({@code pipeline.step(name)}) of the job as built last, with their processing-error rules. */
    public JobSteps steps() {
        return graphs.steps();
    }

    /** The StreamSplit sources in the job, the beans' and those its pipelines built (a SQL table's). */
    public JobSources sources() {
        return graphs.sources();
    }

    /** Stop, start and rescale from the {@code streamsplit} endpoint. */
    public JobCommands commands() {
        return commands;
    }

    /** The embedded cluster's task slots (fixed when it started: the parallelism the job was configured with). */
    int embeddedSlots() {
        return embeddedSlots;
    }

    /** Whether the job runs on a cluster, where this application is its controller. */
    boolean onCluster() {
        return cluster != null;
    }

    /**
     * Whether the application has no job to run by its own choice: the job is switched off
     * ({@code streamsplit.flink.enabled=false}) or no {@code StreamSplitPipeline} bean is defined. Not a failure.
     */
    public boolean hasNothingToRun() {
        return nothingToRun;
    }

    /** Whether the application is stopping the job (so a CANCELED status is expected, not a failure). */
    public boolean isStopping() {
        return stopping;
    }

    /**
     * Runs the embedded job only on the instance that {@code election} elects among the application's replicas;
     * the others stand by and take over when it stops or dies; {@code beforeEachRun} points each run at the newest
     * state (told whether the run is a takeover). Call before the context starts.
     */
    /**
     * {@code streamsplit.flink.dry-run}: start builds the job and says what it would do — submit, resume from which
     * state, adopt or upgrade which run — without submitting, stopping or writing anything. Call before the
     * context starts.
     */
    public void dryRun(boolean dryRun) {
        this.dryRun = dryRun;
    }

    /** What the dry run found it would do; {@code null} when this is not a dry run or it has not run yet. */
    public @Nullable String dryRunReport() {
        return dryRunReport;
    }

    public void electedBy(
            Function<ReplicaElection.Listener, ReplicaElection> election,
            java.util.function.Consumer<Boolean> beforeEachRun) {
        this.electionFactory = election;
        this.beforeElectedRun = beforeEachRun;
    }

    /** The Kafka the replicas' election runs on, for messages; empty without an election. */
    public String replicaServers() {
        ReplicaElection current = election;
        return current == null ? "" : current.bootstrapServers();
    }

    /** This instance's part in its replicas' election; {@code null} when every instance runs the job. */
    public ReplicaElection.@Nullable Status replicaStatus() {
        ReplicaElection current = election;
        return current == null ? null : current.status();
    }

    @Override
    public void start() {
        if (!settings.enabled()) {
            settings.requireJob("streamsplit.flink.enabled", false, "the job is switched off");
            LOG.info("streamsplit.flink.enabled=false: Flink job '{}' is not submitted", jobName);
            submission.completeExceptionally(new IllegalStateException("streamsplit.flink.enabled is false"));
            nothingToRun = true;
            running = true;
            return;
        }
        Map<String, StreamSplitPipeline> pipelines = beanFactory.getBeansOfType(StreamSplitPipeline.class);
        if (pipelines.isEmpty()) {
            settings.requireJob("streamsplit.flink.mode", "application", "it has no pipeline");
            LOG.info("No StreamSplitPipeline beans: no Flink job to submit. Define a @Bean StreamSplitPipeline to"
                    + " build one from the configured sources.");
            submission.completeExceptionally(new IllegalStateException("no StreamSplitPipeline beans are defined"));
            nothingToRun = true;
            running = true;
            return;
        }
        StreamGraph graph = graphs.build(pipelines);
        EmbeddedCheckpoints.warnIfRestartsReprocess(
                jobName, notRetained, graphs.sources().startingOffsets());
        if (dryRun) {
            String report = wouldDo(graph);
            dryRunReport = report;
            LOG.info(
                    "Dry run of Flink job '{}' ({} operators, parallelism {}), nothing submitted, stopped or written: {}",
                    jobName,
                    graph.getStreamNodes().size(),
                    environment.getParallelism(),
                    report);
            submission.completeExceptionally(new IllegalStateException("streamsplit.flink.dry-run: nothing submitted"));
            nothingToRun = true;
            running = true;
            return;
        }
        if (cluster != null && clusterStart != null) {
            JobFingerprint.Parts parts = clusterStart.check(graph);
            fingerprint = parts;
            try {
                ClusterRun run = cluster.reconcile(oneThenRebuilt(graph), parts);
                attach(run);
                keeper = new ClusterJobKeeper(
                        cluster,
                        settings.watchInterval(),
                        run,
                        this::buildGraph,
                        parts,
                        this::attach,
                        () -> commands.operatorSavepoint() != null,
                        () -> (stopping && commands.operatorSavepoint() == null) || !submission.isDone());
                keepAlive.start(); // only once attached: a failed start must let the JVM exit
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(
                        "Could not start Flink job '" + jobName + "' on " + target + ": "
                                + ExceptionUtils.stripCompletionException(e).getMessage(),
                        e);
            }
        } else if (settings.mode() == FlinkMode.APPLICATION) {
            // Flink's application mode takes the jobs that main() submitted before it returned: submit now
            submit(graph, submission, true);
        } else if (electionFactory != null) {
            keepAlive.start();
            ReplicaElection elected = electionFactory.apply(new Elected());
            election = elected;
            elected.start();
        } else {
            keepAlive.start();
            runInBackground(graph, submission);
        }
        running = true;
    }

    /** The dry run's answer: what a start would do with {@code graph}, after the cluster's own checks. */
    private String wouldDo(StreamGraph graph) {
        if (cluster != null && clusterStart != null) {
            try {
                return cluster.plan(oneThenRebuilt(graph), clusterStart.check(graph)) + " on " + target;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(
                        "Dry run of Flink job '" + jobName + "' on " + target + ": "
                                + ExceptionUtils.stripCompletionException(e).getMessage(),
                        e);
            }
        }
        org.apache.flink.configuration.ReadableConfig config = environment.getConfiguration();
        StatePlan plan = graphs.statePlan();
        String from = config.getOptional(org.apache.flink.configuration.StateRecoveryOptions.SAVEPOINT_PATH)
                .map(path -> "resuming from " + path + (plan != null ? ". " + plan.describe() : ""))
                .orElse("from the sources' starting offsets");
        return "would run on " + target + " " + from
                + (election != null || electionFactory != null ? ", on the replica the election picks" : "");
    }

    /** What the embedded job does when this instance's role among the replicas changes. */
    private final class Elected implements ReplicaElection.Listener {

        @Override
        public void active(boolean takeover) {
            java.util.function.Consumer<Boolean> resume = beforeElectedRun;
            if (stopping || resume == null) {
                return;
            }
            CompletableFuture<JobClient> run = submission;
            if (run.isDone()) {
                run = new CompletableFuture<>();
                submission = run;
            }
            try {
                // from the newest state there is now (the one the last active replica left), not what was newest
                // when this instance started
                resume.accept(takeover);
                submit(buildGraph(), run, false);
            } catch (RuntimeException e) {
                run.completeExceptionally(e);
                LOG.error(
                        "Could not start Flink job '{}' on this instance after it was elected: {}",
                        jobName,
                        RunOutcomes.rootMessage(e),
                        e);
            }
        }

        @Override
        public void standDown(String why) {
            CompletableFuture<JobClient> run = submission;
            submission = new CompletableFuture<>();
            if (!run.isDone() || run.isCompletedExceptionally()) {
                return;
            }
            JobClient client = run.join();
            stopping = true;
            try {
                closeReporter();
                client.cancel().get(STAND_DOWN.toMillis(), TimeUnit.MILLISECONDS);
                commands.awaitEnd(client, STAND_DOWN);
                LOG.info(
                        "Cancelled Flink job '{}' ({}) on this instance: another replica runs it now; the next time"
                                + " this instance is elected it resumes from the newest state it can read",
                        jobName,
                        client.getJobID());
            } catch (Exception e) {
                LOG.warn(
                        "Could not cancel Flink job '{}' ({}) after this instance stood down ({}): {}",
                        jobName,
                        client.getJobID(),
                        why,
                        RunOutcomes.rootMessage(e));
            } finally {
                stopping = false;
            }
        }
    }

    /** Supplies {@code built} first, then a fresh build for every further submission (a lost race, a retry). */
    private Supplier<StreamGraph> oneThenRebuilt(StreamGraph built) {
        StreamGraph[] first = {built};
        return () -> {
            StreamGraph graph = first[0];
            first[0] = null;
            return graph != null ? graph : buildGraph();
        };
    }

    /** Builds the job from every {@link StreamSplitPipeline} bean, in {@code @Order}. */
    StreamGraph buildGraph() {
        return graphs.build(beanFactory.getBeansOfType(StreamSplitPipeline.class));
    }

    /** Starts a new run: on the cluster through the controller, embedded by submitting {@code graph}. */
    CompletableFuture<JobClient> startRun(StreamGraph graph, @Nullable String savepoint) {
        CompletableFuture<JobClient> run = new CompletableFuture<>();
        submission = run;
        stopping = false;
        if (cluster != null && savepoint != null) {
            JobFingerprint.Parts parts =
                    Objects.requireNonNull(fingerprint, "taken when the job started on the cluster");
            Thread submitter = new Thread(
                    () -> {
                        try {
                            attach(cluster.startFrom(oneThenRebuilt(graph), parts, savepoint));
                        } catch (Exception e) {
                            run.completeExceptionally(e);
                            LOG.error(
                                    "Could not start Flink job '{}' on {} from {}: {}",
                                    jobName,
                                    target,
                                    savepoint,
                                    RunOutcomes.rootMessage(e),
                                    e);
                        }
                    },
                    "streamsplit-submit-" + jobName);
            submitter.setDaemon(true);
            submitter.start();
        } else {
            runInBackground(graph, run);
        }
        return run;
    }

    /** Makes {@code run} this instance's run: its client, the keeper's run, and its failure reports. */
    private void attach(ClusterRun run) {
        clusterRun = run;
        ClusterJobKeeper current = keeper;
        if (current != null) {
            current.following(run);
        }
        CompletableFuture<JobClient> pending = submission;
        if (pending.isDone()) {
            pending = new CompletableFuture<>();
            submission = pending;
        }
        pending.complete(run.client());
        watch(run.client());
        if (run.submittedHere()) {
            firstCheckpoint(run.client());
        }
    }

    /** What the application last saw of its job on the cluster; {@code null} on the embedded cluster. */
    public ClusterJobKeeper.@Nullable Status clusterStatus() {
        ClusterJobKeeper current = keeper;
        return current == null ? null : current.status();
    }

    /**
     * Prunes the states earlier runs left to {@code checkpointing.history.*} while run {@code running} goes on (after
     * a periodic savepoint): the live run's own checkpoints, the newest state and the one it started from stay.
     */
    public void keepHistoryShort(org.apache.flink.api.common.JobID running) {
        if (cluster != null) {
            cluster.keepHistoryShort(running);
        } else {
            keepEmbeddedHistoryShort();
        }
    }

    /** Prunes the embedded job's history, the run it starts or runs (the live configuration's job id) spared. */
    private void keepEmbeddedHistoryShort() {
        stateHistory = EmbeddedCheckpoints.keepHistoryShort(
                definition, (org.apache.flink.configuration.Configuration) environment.getConfiguration());
    }

    /**
     * Where savepoints of the job go (the endpoint's stop, the shutdown's, an upgrade's): on a cluster the
     * application's directory, else the cluster's, else {@code <checkpoint storage>/savepoints}; embedded the
     * configured one, else {@code <checkpoint storage>/savepoints}. {@code null} when there is none.
     */
    public @Nullable String savepointDirectory() {
        if (cluster != null) {
            return cluster.savepointDirectory();
        }
        return environment
                .getConfiguration()
                .getOptional(CheckpointingOptions.SAVEPOINT_DIRECTORY)
                .orElse(null);
    }

    private void runInBackground(StreamGraph graph, CompletableFuture<JobClient> run) {
        Thread submitter = new Thread(() -> submit(graph, run, false), "streamsplit-submit-" + jobName);
        submitter.setDaemon(true);
        submitter.start();
    }

    /** Submits {@code graph}; a failure fails the start when {@code failStart}, else is logged. */
    private void submit(StreamGraph graph, CompletableFuture<JobClient> run, boolean failStart) {
        try {
            if (cluster == null) {
                keepEmbeddedHistoryShort();
            }
            JobClient client = environment.executeAsync(graph);
            LOG.info("Submitted Flink job '{}' ({}) to {}", jobName, client.getJobID(), target);
            run.complete(client);
            firstCheckpoint(client);
            watch(client);
            client.getJobExecutionResult().whenComplete((result, failure) -> {
                closeReporter();
                if (!stopping) {
                    outcomes.ended(client.getJobID(), failure);
                }
            });
        } catch (Exception e) {
            run.completeExceptionally(e);
            String why = RunOutcomes.notStarted(e, environment.getConfiguration());
            if (failStart) {
                throw new IllegalStateException(
                        "Could not submit Flink job '" + jobName + "' to " + target + ": " + why, e);
            }
            LOG.error(
                    "Could not submit Flink job '{}' to {}: {}. The application keeps running without the job.",
                    jobName,
                    target,
                    why,
                    e);
        }
    }

    private void firstCheckpoint(JobClient client) {
        if (rest != null && settings.checkpointing() && settings.firstCheckpointOnStart()) {
            FirstCheckpoint.triggerWhenRunning(rest, jobName, client.getJobID().toString());
        }
    }

    private void watch(JobClient client) {
        closeReporter();
        if (failures != null && failureHistory != null) {
            reporter =
                    new JobFailureReporter(jobName, client.getJobID().toString(), failureHistory, failures, failureLog);
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

    void markStopping(boolean value) {
        stopping = value;
    }

    /** Stops (or keeps) the job, all of it within {@code streamsplit.flink.shutdown.timeout}. */
    private void stopJob() {
        long deadline = System.nanoTime() + settings.runs().stopTimeout().toNanos();
        stopping = true;
        keepAlive.interrupt();
        ClusterJobKeeper lastKeeper = keeper;
        if (lastKeeper != null) {
            lastKeeper.close();
        }
        closeReporter();
        ReplicaElection elected = election;
        try {
            if (elected != null && elected.status().role() != ReplicaElection.Role.ACTIVE) {
                return; // a standby runs no job
            }
            JobClient client;
            try {
                client = submission.get(JobShutdown.remaining(deadline), TimeUnit.MILLISECONDS);
            } catch (Exception notSubmitted) {
                return;
            }
            new JobShutdown(settings, jobName, target, cluster != null, savepointDirectory())
                    .stop(client, commands, lastKeeper == null ? null : lastKeeper.status(), deadline);
        } finally {
            if (elected != null) {
                // only now, with the job stopped (and its savepoint taken): the next replica resumes from it
                elected.close(Duration.ofMillis(JobShutdown.remaining(deadline)).plusSeconds(5));
            }
        }
    }

    /** What the job as built last reads and writes, as Flink's lineage interface reports it. */
    public JobLineage lineage() {
        return graphs.lineage();
    }

    /**
     * The state plan of the last start from a checkpoint or savepoint (embedded: before resuming; on a cluster: an
     * upgrade or resume this instance decided); {@code null} when none was made.
     */
    public @Nullable StatePlan statePlan() {
        return cluster != null ? cluster.statePlan() : graphs.statePlan();
    }

    /**
     * The states earlier runs left that were kept when this instance last submitted the job, newest first (embedded, or
     * on a cluster whose checkpoint storage the application reaches); empty otherwise.
     */
    public List<RetainedState> stateHistory() {
        if (cluster != null) {
            return cluster.stateHistory();
        }
        StateHistory.Pruned pruned = stateHistory;
        return pruned == null ? List.of() : pruned.kept();
    }

    /** The job's failures since the application started, over all its runs. */
    public JobFailureLog failureLog() {
        return failureLog;
    }

    private void closeReporter() {
        JobFailureReporter current = reporter;
        if (current != null) {
            current.close();
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
}
