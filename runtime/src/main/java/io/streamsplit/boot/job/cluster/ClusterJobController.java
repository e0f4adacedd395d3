package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.cluster.ClusterView.ActiveRun;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedCheckpointPolicy;
import io.streamsplit.boot.job.state.RetainedCheckpoints;
import io.streamsplit.boot.job.state.RetainedState;
import io.streamsplit.boot.job.state.RunSettings;
import io.streamsplit.boot.job.state.StateHistory;
import io.streamsplit.boot.job.state.StatePlan;
import io.streamsplit.boot.job.state.StatePlanner;
import io.streamsplit.boot.job.state.StorageStates;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application as the controller of its job on a session cluster, as the Flink Kubernetes Operator
 * is of a {@code FlinkDeployment}: it reads the cluster ({@link ClusterJobs#view}), lets
 * {@link JobDecision#decide} say what to do, and does it: adopt or follow a run, upgrade one of another
 * version per {@code streamsplit.flink.upgrade-mode}, start the job from {@code restore-path} or the
 * newest state an earlier run left, put back a run the cluster forgot, cancel older runs. At start-up
 * ({@link #reconcile}) until it follows a run; while the application runs, one look at a time
 * ({@link #look}, from {@link ClusterJobKeeper}).
 *
 * <p>Races between instances are decided by Flink: every instance that decides to submit generation
 * <i>n</i> submits the same job id, the cluster accepts the first and refuses the others, and the
 * losers look again and follow the winner's run. A decision is therefore always taken on a fresh read
 * of the cluster, and repeated after a lost race.
 */
public final class ClusterJobController {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterJobController.class);
    private static final int ATTEMPTS = 8;
    private static final Duration POLL = Duration.ofMillis(250);

    private final ClusterJobs jobs;
    private final ClusterConnection connection;
    private final JobIdentity identity;
    private final RunSettings runs;
    private final String owner;
    private final String target;
    private final RetainedCheckpointPolicy policy;
    private final RunStopper stopper;
    private final RunSubmitter submitter;
    private final Configuration jobConfiguration;
    private volatile @Nullable ClusterStorage storage;
    private volatile @Nullable StatePlan statePlan;
    private volatile StateHistory.@Nullable Pruned history;
    private volatile @Nullable String startedFrom;

    /**
     * @param rest the cluster's REST API
     * @param configuration the remote environment's configuration (REST address, shipped jars)
     * @param classLoader the application's class loader
     * @param jobName the job's name: its identity on the cluster
     * @param runs how runs start and stop ({@code streamsplit.flink.upgrade-mode}, {@code restore-path}, {@code shutdown.timeout})
     * @param owner the application that owns the job (its main class)
     * @param target "the Flink cluster at host:port", for messages
     * @param policy decides whether a retained checkpoint still fits Kafka before a run starts from it
     */
    public ClusterJobController(
            FlinkRestClient rest,
            Configuration configuration,
            ClassLoader classLoader,
            String jobName,
            RunSettings runs,
            String owner,
            String target,
            RetainedCheckpointPolicy policy) {
        this.identity = JobIdentity.of(jobName);
        this.jobs = new ClusterJobs(rest, identity);
        this.connection = new ClusterConnection(configuration, classLoader);
        this.jobConfiguration = configuration;
        this.runs = runs;
        this.owner = owner;
        this.target = target;
        this.policy = policy;
        this.stopper = new RunStopper(jobs, connection, identity, runs.stopTimeout(), target);
        this.submitter = new RunSubmitter(jobs, connection, identity, owner, runs.version(), target);
    }

    /** The job's identity on the cluster. */
    public JobIdentity identity() {
        return identity;
    }

    /** "the Flink cluster at host:port". */
    public String target() {
        return target;
    }

    /**
     * The states earlier runs left that were kept when this instance last started a run (newest first); empty before
     * one, or when the application cannot reach the job's checkpoint storage.
     */
    public java.util.List<RetainedState> stateHistory() {
        StateHistory.Pruned pruned = history;
        return pruned == null ? java.util.List.of() : pruned.kept();
    }

    /** The state plan of the last start of a run from a snapshot (an upgrade, a resume); {@code null} before one. */
    public @Nullable StatePlan statePlan() {
        return statePlan;
    }

    /**
     * Brings the cluster to one active run of this application's job and returns it: adopted,
     * upgraded, resumed or submitted. {@code graph} builds the job (called for each submission);
     * {@code fingerprint} is its {@link JobFingerprint}. Fails, before anything is submitted, when the
     * default upgrade could not work: {@code upgrade-mode: savepoint} with no savepoint directory anywhere.
     */
    public ClusterRun reconcile(Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint) throws Exception {
        ClusterStorage places = storage();
        places.requireUpgradeState(runs.upgradeMode(), identity.name());
        for (int attempt = 1; ; attempt++) {
            ClusterView view = jobs.view();
            requireAnswer(view);
            JobDecision.Application app =
                    application(JobDecision.Phase.STARTING, null, 0, fingerprint, attempt >= ATTEMPTS);
            JobDecision decision = JobDecision.decide(view, app);
            ClusterRun run = carryOut(decision, app, graph, fingerprint);
            if (run != null) {
                return run;
            }
            if (decision instanceof JobDecision.Refuse refused) {
                throw refusal(refused);
            }
            if (attempt >= ATTEMPTS) {
                throw new IllegalStateException("Flink job '" + identity.name() + "' did not settle on " + target
                        + " after " + ATTEMPTS + " attempts: other instances of the application kept changing it."
                        + " Start the instances one after another.");
            }
            if (decision instanceof JobDecision.Wait wait && wait.why() == JobDecision.Why.STARTING) {
                // a restore may take longer than the attempts; a run that is starting is the newest active one
                stopper.awaitSettled(
                        Objects.requireNonNull(view.newest(), "a starting run").job());
            } else if (!(decision instanceof JobDecision.CancelOlder)) {
                RunStopper.pause(POLL.multipliedBy(attempt));
            }
        }
    }

    /**
     * What {@link #reconcile} would do now, without doing it ({@code streamsplit.flink.dry-run}): one look at the
     * cluster and the decision of a starting instance, in words, with its {@link StatePlan}. A cluster that does not
     * answer, a default upgrade with nowhere to put its savepoint, a job this application must not touch or a state
     * plan that is refused fail as {@code reconcile} would.
     */
    public String plan(Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint) throws Exception {
        ClusterStorage places = storage();
        places.requireUpgradeState(runs.upgradeMode(), identity.name());
        ClusterView view = jobs.view();
        requireAnswer(view);
        JobDecision decision =
                JobDecision.decide(view, application(JobDecision.Phase.STARTING, null, 0, fingerprint, true));
        if (decision instanceof JobDecision.Refuse refused) {
            throw refusal(refused);
        }
        if (decision instanceof JobDecision.Attach attach) {
            return (attach.why() != null ? attach.why() + "; " : "") + "would adopt run "
                    + attach.run().id() + " (generation " + attach.run().generation()
                    + "), which runs this version of the job";
        }
        if (decision instanceof JobDecision.Upgrade upgrade) {
            String plan = upgrade.mode() == UpgradeMode.STATELESS
                    ? "without state"
                    : checkedPlan(
                                    graph.get(),
                                    () -> newestOf(upgrade.run()),
                                    "run " + upgrade.run().id())
                            .describe();
            return "would upgrade run " + upgrade.run().id() + " (generation "
                    + upgrade.run().generation()
                    + ", another version of the job: "
                    + String.join(
                            ", ", fingerprint.changedFrom(upgrade.run().labels().fingerprintParts()))
                    + " changed) with upgrade-mode "
                    + upgrade.mode().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ". " + plan;
        }
        if (decision instanceof JobDecision.Start start) {
            RetainedState newest = places.states(identity).scan().newest();
            RetainedState from = runs.restorePath() != null ? restorePathState() : newest;
            return "would submit generation " + start.generation() + " "
                    + (from != null
                            ? "from " + from.describe() + ". "
                                    + checkedPlan(graph.get(), () -> from, from.describe())
                                            .describe()
                            : "from the sources' starting offsets");
        }
        if (decision instanceof JobDecision.CancelOlder older) {
            return "would cancel " + older.runs().size() + " older active run(s), then decide again";
        }
        if (decision instanceof JobDecision.Wait wait) {
            return "would wait: " + wait.reason();
        }
        return "would change nothing";
    }

    /** A start cannot decide on a cluster that does not answer: it fails, naming the address's properties. */
    private void requireAnswer(ClusterView view) {
        if (view.notAnswering() != null) {
            throw new IllegalStateException("Flink job '" + identity.name() + "': " + target + " did not answer: "
                    + view.notAnswering() + ". Check streamsplit.flink.remote.host and remote.port.");
        }
    }

    /** The start-up failure for a job this application must not touch, naming {@code streamsplit.flink.job-name}. */
    private InvalidStreamSplitConfigurationException refusal(JobDecision.Refuse refused) {
        return new InvalidStreamSplitConfigurationException(
                "streamsplit.flink.job-name",
                identity.name(),
                refused.problem() + " (on " + target + ")",
                refused.fix());
    }

    /**
     * One look while the application runs: reads the cluster, decides for an instance in {@code phase}
     * following {@code attached} ({@code null} when none), and carries the decision out.
     */
    public Look look(
            JobDecision.Phase phase,
            @Nullable ClusterRun attached,
            Supplier<StreamGraph> graph,
            JobFingerprint.Parts fingerprint)
            throws Exception {
        ClusterView view = jobs.view();
        JobDecision.Application app = application(
                phase,
                attached == null ? null : attached.jobId(),
                attached == null ? 0 : attached.generation(),
                fingerprint,
                false);
        if (view.notAnswering() == null
                && view.newest() == null
                && phase == JobDecision.Phase.ATTACHED
                && attached != null
                && view.run(attached.jobId()).isEmpty()) {
            app = app.withRecovery(jobs.recoversJobs());
        }
        JobDecision decision = JobDecision.decide(view, app);
        return new Look(view, decision, carryOut(decision, app, graph, fingerprint));
    }

    /**
     * What one look found and did.
     *
     * @param view the cluster as read
     * @param decision what was decided
     * @param run the run this instance follows from now on, {@code null} when that did not change
     */
    public record Look(
            ClusterView view,
            JobDecision decision,
            @Nullable ClusterRun run) {}

    /**
     * Submits the next generation of the job from {@code savepoint} (a stop from the endpoint, then
     * start or rescale); labelled with {@code fingerprint}, the application's, so a restart adopts it.
     */
    public ClusterRun startFrom(Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint, String savepoint)
            throws Exception {
        RetainedState state = new RetainedState(
                savepoint, RetainedState.Kind.SAVEPOINT, -1, Instant.now(), "taken from the endpoint");
        for (int attempt = 1; ; attempt++) {
            Optional<ClusterRun> run = submitter.submit(
                    graph,
                    fingerprint,
                    submitter.nextGeneration(jobs.view().lastGeneration()),
                    state,
                    ClusterRun.How.RESUMED);
            if (run.isPresent()) {
                return run.get();
            }
            if (attempt >= ATTEMPTS) {
                throw new IllegalStateException("another instance submitted the job at the same time; look at it with"
                        + " GET /actuator/streamsplit");
            }
        }
    }

    private JobDecision.Application application(
            JobDecision.Phase phase,
            org.apache.flink.api.common.@Nullable JobID attached,
            long generation,
            JobFingerprint.Parts fingerprint,
            boolean lastLook) {
        return new JobDecision.Application(
                phase,
                attached,
                generation,
                fingerprint.fingerprint(),
                owner,
                runs.version(),
                runs.allowDowngrade(),
                runs.upgradeMode(),
                runs.stopTimeout(),
                lastLook,
                false);
    }

    /** Does what {@code decision} says; the run this instance follows from now on, or {@code null}. */
    private @Nullable ClusterRun carryOut(
            JobDecision decision,
            JobDecision.Application app,
            Supplier<StreamGraph> graph,
            JobFingerprint.Parts fingerprint)
            throws Exception {
        if (decision instanceof JobDecision.Attach attach) {
            if (attach.why() != null) {
                LOG.info("Flink job '{}' on {}: {}", identity.name(), target, attach.why());
            }
            return attach(attach.run(), attach.how(), fingerprint);
        }
        if (decision instanceof JobDecision.Upgrade upgrade) {
            return upgrade(graph, fingerprint, upgrade);
        }
        if (decision instanceof JobDecision.Start start) {
            return start(graph, fingerprint, start, app.phase());
        }
        if (decision instanceof JobDecision.CancelOlder older) {
            for (ClusterJob run : older.runs()) {
                LOG.warn(
                        "Flink job '{}' has more than one active run on {}: cancelling generation {} ({}), older than"
                                + " the newest; two runs would write the same transactions",
                        identity.name(),
                        target,
                        identity.generation(run.id()),
                        run.id());
                stopper.cancel(run);
            }
        } else if (decision instanceof JobDecision.Wait wait) {
            LOG.debug("Flink job '{}' on {}: waiting ({})", identity.name(), target, wait.reason());
        }
        return null; // Keep, Wait, Refuse, LeaveStopped: nothing to change here
    }

    private ClusterRun attach(ActiveRun run, ClusterRun.How how, JobFingerprint.Parts fingerprint) {
        if (how == ClusterRun.How.ADOPTED) {
            LOG.info(
                    "Adopted Flink job '{}' ({}, generation {}, {}) on {}: it runs this application's job unchanged"
                            + " (fingerprint {}), submitted by {} at {}; nothing was submitted",
                    identity.name(),
                    run.id(),
                    run.generation(),
                    run.job().state(),
                    target,
                    fingerprint.fingerprint(),
                    run.labels().instance(),
                    run.job().startedAt());
        }
        return new ClusterRun(
                connection.client(run.id()),
                run.generation(),
                how,
                fingerprint.fingerprint(),
                run.labels().fingerprint(),
                run.labels().instance(),
                null);
    }

    private @Nullable ClusterRun start(
            Supplier<StreamGraph> graph,
            JobFingerprint.Parts fingerprint,
            JobDecision.Start start,
            JobDecision.Phase phase)
            throws Exception {
        ClusterStorage places = storage();
        StorageStates.Found stored = places.states(identity).scan();
        RetainedState newest = stored.newest();
        for (ClusterJob run : jobs.view().runs()) {
            newest = RetainedState.newer(newest, jobs.latestState(run.id()).orElse(null));
        }
        String restorePath = runs.restorePath();
        RetainedState from;
        if (restorePath != null && (phase == JobDecision.Phase.STARTING || newest == null)) {
            from = restorePathState();
            if (newest != null) {
                LOG.warn(
                        "Flink job '{}' starts from streamsplit.flink.restore-path={} as configured, although an earlier"
                                + " run left {}; remove restore-path once the job has started from it, so that"
                                + " the next start resumes from the newest state",
                        identity.name(),
                        restorePath,
                        newest.describe());
            }
        } else if (newest != null && policy.resume(checkpoint(newest))) {
            from = newest;
        } else {
            from = null;
        }
        long generation =
                Math.max(Math.max(start.generation(), stored.lastGeneration() + 1), submitter.nextGeneration(0));
        Supplier<StreamGraph> planned = graph;
        if (from != null) {
            StreamGraph built = graph.get();
            RetainedState resumed = from;
            checkedPlan(graph.get(), () -> resumed, resumed.describe());
            planned = () -> built;
        }
        Optional<ClusterRun> run = submitter.submit(
                planned,
                fingerprint,
                generation,
                from,
                from == null ? ClusterRun.How.SUBMITTED : ClusterRun.How.RESUMED);
        run.ifPresent(started -> keepHistoryShort(started, from));
        if (run.isPresent() && start.putBack()) {
            LOG.warn(
                    "Flink job '{}' was no longer on {} (its JobManager restarted without high availability, or the"
                            + " cluster was replaced): put it back as generation {} {}",
                    identity.name(),
                    target,
                    generation,
                    from != null
                            ? "from " + from.describe()
                            : "without state (no retained checkpoint or savepoint: set"
                                    + " streamsplit.flink.checkpointing.storage so that checkpoints outlive the"
                                    + " JobManager); sources start from their starting offsets");
        }
        return run.orElse(null); // empty: another instance submitted first, the next look adopts its run
    }

    private @Nullable ClusterRun upgrade(
            Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint, JobDecision.Upgrade upgrade)
            throws Exception {
        ActiveRun current = upgrade.run();
        UpgradeMode mode = upgrade.mode();
        if (mode == UpgradeMode.LAST_STATE) {
            if (upgrade.notRunning()) {
                LOG.warn(
                        "Flink job '{}' ({}) is {}, not RUNNING: no savepoint can be taken, so it is upgraded from its"
                                + " latest retained checkpoint (as upgrade-mode last-state)",
                        identity.name(),
                        current.id(),
                        current.job().state());
            }
            stopper.requireRetainedCheckpoint(current.job(), runs.upgradeMode());
        }
        Supplier<StreamGraph> planned = graph;
        if (mode != UpgradeMode.STATELESS) {
            // before the run is touched: a change that would drop or break its state leaves it running
            StreamGraph built = graph.get();
            checkedPlan(graph.get(), () -> newestOf(current), "run " + current.id());
            planned = () -> built;
        }
        RetainedState from;
        long started = System.nanoTime();
        if (mode == UpgradeMode.SAVEPOINT) {
            Optional<RetainedState> savepoint =
                    stopper.stopWithSavepoint(current.job(), storage().savepointDirectory());
            if (savepoint.isEmpty()) {
                return null; // another instance stopped it first: the next look adopts its run
            }
            from = savepoint.get();
        } else if (mode == UpgradeMode.STATELESS) {
            stopper.cancel(current.job());
            from = null;
        } else {
            stopper.cancel(current.job());
            // a checkpoint may have completed between the check and the cancel
            from = jobs.latestCheckpoint(current.id()).orElseThrow();
        }
        long generation = submitter.nextGeneration(jobs.view().lastGeneration());
        LOG.info(
                "Upgrading Flink job '{}' on {} (upgrade-mode {}): run {} (generation {}, fingerprint {}, submitted by"
                        + " {}) runs another version of this application (changed: {}); {} in {} ms; submitting"
                        + " generation {} (fingerprint {}) {}",
                identity.name(),
                target,
                runs.upgradeMode().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                current.id(),
                current.generation(),
                current.labels().fingerprint(),
                current.labels().instance(),
                String.join(", ", fingerprint.changedFrom(current.labels().fingerprintParts())),
                from != null && from.kind() == RetainedState.Kind.SAVEPOINT ? "stopped with a savepoint" : "cancelled",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                generation,
                fingerprint.fingerprint(),
                from == null ? "without state" : "from " + from.describe());
        Optional<ClusterRun> run = submitter.submit(planned, fingerprint, generation, from, ClusterRun.How.UPGRADED);
        run.ifPresent(upgraded -> keepHistoryShort(upgraded, from));
        return run.orElse(null); // empty: another instance submitted first, the next look adopts its run
    }

    /** {@code streamsplit.flink.restore-path} as the state a run starts from; only when it is set. */
    private RetainedState restorePathState() {
        return new RetainedState(
                Objects.requireNonNull(runs.restorePath(), "restore-path"),
                RetainedState.Kind.GIVEN,
                -1,
                Instant.EPOCH,
                "streamsplit.flink.restore-path");
    }

    /**
     * The state plan of starting {@code probe} from the state {@code from} supplies — {@code probe} a build of the job
     * of its own, never submitted: Flink's hasher leaves a cache of head operators in the graph it hashes, which must
     * not travel to the cluster — logged and kept for
     * {@code /actuator/streamsplit}; refused, before anything is stopped or submitted, when it would drop state
     * without {@value StatePlan#ALLOW_DROP} or cannot restore. A snapshot that is gone by the time its metadata is
     * read (a running job's checkpoint, replaced by its next one) is looked for again.
     */
    private StatePlan checkedPlan(StreamGraph probe, Callable<@Nullable RetainedState> from, String none)
            throws Exception {
        StatePlan plan;
        for (int attempt = 1; ; attempt++) {
            RetainedState state = from.call();
            plan = state == null
                    ? StatePlan.unknown(
                            none,
                            "no completed checkpoint to compare with yet; Flink checks the state when"
                                    + " the new run restores")
                    : StatePlanner.plan(probe, state.path(), state.describe());
            if (state == null || plan.verdict() != StatePlan.Verdict.UNKNOWN || attempt == 3) {
                break;
            }
        }
        statePlan = plan;
        return StatePlanner.act(
                plan, jobConfiguration.get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE), identity.name());
    }

    /**
     * The newest state of {@code run}: its latest checkpoint as the cluster lists it, or a newer one in storage (the
     * cluster's list is cached for seconds, while a run that checkpoints often deletes what it replaced).
     */
    private @Nullable RetainedState newestOf(ActiveRun run) throws Exception {
        RetainedState listed = jobs.latestCheckpoint(run.id()).orElse(null);
        return RetainedState.newer(listed, storage().states(identity).scan().newest());
    }

    /**
     * Once this instance started {@code run} (from {@code from}): deletes the states earlier runs left beyond
     * {@code checkpointing.history.*} in the checkpoint storage and savepoint directory the application reaches, as
     * embedded; never the newest, the one the run started from, or anything of the run itself.
     */
    private void keepHistoryShort(ClusterRun run, @Nullable RetainedState from) {
        startedFrom = from == null ? null : from.path();
        keepHistoryShort(run.jobId());
    }

    /**
     * Prunes the states earlier runs left while {@code running} goes on (after a periodic savepoint): never the
     * newest, the one the run this instance started began from, or the live run's own checkpoints.
     */
    public void keepHistoryShort(org.apache.flink.api.common.JobID running) {
        ClusterStorage places = storage;
        if (places == null || places.checkpointStorage() == null) {
            return;
        }
        String from = startedFrom;
        history = new StateHistory(identity, places.checkpointStorage(), places.savepointDirectory(), runs.history())
                .prune(from == null ? java.util.Set.of() : java.util.Set.of(from), running, Instant.now());
    }

    /**
     * When the run's last savepoint completed, as the cluster lists it; empty without one, or when the cluster does
     * not answer.
     */
    public Optional<Instant> lastSavepoint(org.apache.flink.api.common.JobID run) {
        try {
            return jobs.latestSavepoint(run).map(RetainedState::completedAt);
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /**
     * Where savepoints of the job go (an upgrade's, a stop's from the endpoint, the shutdown's): the
     * application's directory, else the cluster's, else {@code <checkpoint storage>/savepoints}; {@code null}
     * when there is none or the cluster has not been read yet.
     */
    public @Nullable String savepointDirectory() {
        ClusterStorage known = storage;
        return known == null ? null : known.savepointDirectory();
    }

    /** Where the job's checkpoints and savepoints are, the application's settings first, else the cluster's. */
    private ClusterStorage storage() throws Exception {
        ClusterStorage known = storage;
        if (known == null) {
            known = ClusterStorage.of(jobConfiguration, jobs.clusterConfiguration());
            storage = known;
        }
        return known;
    }

    private static RetainedCheckpoints.Checkpoint checkpoint(RetainedState state) {
        String directory = state.kind() == RetainedState.Kind.CHECKPOINT
                ? new org.apache.flink.core.fs.Path(state.path()).getParent().toString()
                : state.path();
        return new RetainedCheckpoints.Checkpoint(state.path(), state.checkpointId(), state.completedAt(), directory);
    }
}
