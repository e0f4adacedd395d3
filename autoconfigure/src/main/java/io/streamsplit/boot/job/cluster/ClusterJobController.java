package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties.UpgradeMode;
import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import io.streamsplit.boot.autoconfigure.flink.RetainedCheckpointPolicy;
import io.streamsplit.boot.autoconfigure.flink.RetainedCheckpoints;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application as the controller of its job on a session cluster, as the Flink Kubernetes
 * Operator is of a {@code FlinkDeployment}: at startup it finds the job by its {@link JobIdentity}
 * and
 *
 * <ul>
 *   <li>adopts the run it finds when its fingerprint is the application's own (no submission);
 *   <li>upgrades a run of another version per {@code streamsplit.flink.upgrade-mode}: stops it with a
 *       savepoint ({@code savepoint}), or cancels it and takes its latest retained checkpoint
 *       ({@code last-state}) or nothing ({@code stateless}), then submits the next generation from there;
 *   <li>with no run active, submits the next generation from {@code restore-path}, else from the newest
 *       checkpoint or savepoint any earlier run left (the cluster's record first, checkpoint storage
 *       when the cluster has forgotten), else fresh.
 * </ul>
 *
 * <p>Races between instances are decided by Flink: every instance that decides to submit generation
 * <i>n</i> submits the same job id, the cluster accepts the first and refuses the others, and the
 * losers look again and adopt the winner's run. A decision is therefore always taken on a fresh read
 * of the cluster, and repeated after a lost race.
 */
public final class ClusterJobController {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterJobController.class);
    private static final int ATTEMPTS = 8;
    private static final Duration POLL = Duration.ofMillis(250);

    private final ClusterJobs jobs;
    private final ClusterConnection connection;
    private final JobIdentity identity;
    private final FlinkProperties flink;
    private final String owner;
    private final String target;
    private final RetainedCheckpointPolicy policy;
    private final StorageStates storage;
    private final RunStopper stopper;
    private final RunSubmitter submitter;

    /**
     * @param rest the cluster's REST API
     * @param configuration the remote environment's configuration (REST address, shipped jars)
     * @param classLoader the application's class loader
     * @param jobName the job's name: its identity on the cluster
     * @param flink {@code streamsplit.flink.*}
     * @param owner the application that owns the job (its main class)
     * @param target "the Flink cluster at host:port", for messages
     * @param policy decides whether a retained checkpoint still fits Kafka before a run starts from it
     */
    public ClusterJobController(
            FlinkRestClient rest,
            Configuration configuration,
            ClassLoader classLoader,
            String jobName,
            FlinkProperties flink,
            String owner,
            String target,
            RetainedCheckpointPolicy policy) {
        this.identity = JobIdentity.of(jobName);
        this.jobs = new ClusterJobs(rest, identity);
        this.connection = new ClusterConnection(configuration, classLoader);
        this.flink = flink;
        this.owner = owner;
        this.target = target;
        this.policy = policy;
        this.storage = new StorageStates(
                identity,
                flink.getCheckpointing().getStorage(),
                flink.getShutdown().getSavepointDirectory());
        this.stopper = new RunStopper(jobs, connection, identity, flink, target);
        this.submitter = new RunSubmitter(jobs, connection, identity, owner, target);
    }

    /** The job's identity on the cluster. */
    public JobIdentity identity() {
        return identity;
    }

    /**
     * Brings the cluster to one active run of this application's job and returns it: adopted,
     * upgraded, resumed or submitted. {@code graph} builds the job (called for each submission);
     * {@code fingerprint} is its {@link JobFingerprint}.
     */
    public ClusterRun reconcile(Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint) throws Exception {
        for (int attempt = 1; ; attempt++) {
            ClusterJobs.Snapshot snapshot = jobs.read();
            refuseStrangers(snapshot);
            List<ClusterJob> active = snapshot.active();
            ClusterRun run;
            if (active.isEmpty()) {
                run = start(graph, fingerprint, snapshot);
            } else {
                ClusterJob current = active.get(0);
                stopOlderRuns(active.subList(1, active.size()));
                if (!stopper.awaitSettled(current)) {
                    run = null; // it is being stopped (by another instance); look again
                } else {
                    JobLabels labels = jobs.labels(current.id());
                    requireSameOwner(current, labels);
                    if (labels.fingerprint() == null && attempt < ATTEMPTS) {
                        // a run another instance has just submitted: the cluster shows its configuration only once
                        // it has initialized, and its REST cache may lag a few seconds; look again
                        LOG.debug(
                                "Flink job '{}' run {} shows no labels yet; looking again",
                                identity.name(),
                                current.id());
                        run = null;
                    } else if (fingerprint.fingerprint().equals(labels.fingerprint())) {
                        run = adopt(current, labels, fingerprint);
                    } else {
                        run = upgrade(graph, fingerprint, current, labels);
                    }
                }
            }
            if (run != null) {
                return run;
            }
            if (attempt >= ATTEMPTS) {
                throw new IllegalStateException("Flink job '" + identity.name() + "' did not settle on " + target
                        + " after " + ATTEMPTS + " attempts: other instances of the application kept changing it."
                        + " Start the instances one after another.");
            }
            RunStopper.pause(POLL.multipliedBy(attempt));
        }
    }

    /**
     * Submits the next generation of the job from {@code savepoint} (a stop from the endpoint, then
     * start or rescale); labelled with {@code fingerprint}, the application's, so a restart adopts it.
     */
    public ClusterRun startFrom(Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint, String savepoint)
            throws Exception {
        RetainedState state = new RetainedState(savepoint, "savepoint", -1, Instant.now(), "taken from the endpoint");
        for (int attempt = 1; ; attempt++) {
            ClusterJobs.Snapshot snapshot = jobs.read();
            ClusterRun run = submitter.submit(
                    graph, fingerprint, submitter.nextGeneration(snapshot), state, ClusterRun.How.RESUMED);
            if (run != null) {
                return run;
            }
            if (attempt >= ATTEMPTS) {
                throw new IllegalStateException("another instance submitted the job at the same time; look at it with"
                        + " GET /actuator/streamsplit");
            }
        }
    }

    /**
     * After {@code ended} stopped ({@code state}) without this instance stopping it: the newer run another
     * instance submitted (an upgrade, a start from the endpoint), waited for as long as a stop may take
     * (an upgrade submits it seconds after the old run ended). Logs what this instance does: follow the
     * newer run, or, with none, that the job failed for good or was stopped outside the application.
     * {@code abandoned} says this instance is stopping meanwhile (then nothing is logged).
     */
    public Optional<ClusterRun> afterEnd(ClusterRun ended, JobStatus state, BooleanSupplier abandoned) {
        Optional<ClusterRun> successor = Optional.empty();
        try {
            long deadline = System.nanoTime() + flink.getShutdown().getTimeout().toNanos();
            successor = newerThan(ended);
            while (successor.isEmpty() && !abandoned.getAsBoolean() && System.nanoTime() < deadline) {
                RunStopper.pause(Duration.ofSeconds(1));
                successor = newerThan(ended);
            }
        } catch (Exception e) {
            LOG.debug("Could not look for a newer run of Flink job '{}': {}", identity.name(), e.toString());
        }
        if (abandoned.getAsBoolean()) {
            return Optional.empty();
        }
        if (successor.isPresent()) {
            ClusterRun next = successor.get();
            LOG.info(
                    "Flink job '{}' run {} ended ({}) and another instance's run replaced it: this instance now"
                            + " follows {} (generation {}, fingerprint {}{}, submitted by {})",
                    identity.name(),
                    ended.jobId(),
                    state,
                    next.jobId(),
                    next.generation(),
                    next.runFingerprint(),
                    next.fingerprint().equals(next.runFingerprint()) ? "" : ", another version of this application",
                    next.submittedBy());
        } else if (state == JobStatus.FAILED) {
            LOG.error(
                    "Flink job '{}' ({}) on {} failed for good after its restarts; the last cause is in the log above"
                            + " and in health. Fix it and restart the application: it resumes from the job's newest"
                            + " retained checkpoint.",
                    identity.name(),
                    ended.jobId(),
                    target);
        } else {
            LOG.warn(
                    "Flink job '{}' ({}) on {} is {} and no other run replaced it: it was stopped outside the"
                            + " application. Restart the application to start it again from its newest retained state.",
                    identity.name(),
                    ended.jobId(),
                    target,
                    state);
        }
        return successor;
    }

    private Optional<ClusterRun> newerThan(ClusterRun ended) throws Exception {
        for (ClusterJob run : jobs.read().active()) {
            if (identity.generation(run.id()) > ended.generation()) {
                JobLabels labels = jobs.labels(run.id());
                if (labels.fingerprint() == null) {
                    return Optional.empty(); // still initializing: its configuration is not shown yet
                }
                return Optional.of(new ClusterRun(
                        connection.client(run.id()),
                        identity.generation(run.id()),
                        ClusterRun.How.FOLLOWED,
                        ended.fingerprint(),
                        labels.fingerprint(),
                        labels.instance(),
                        null));
            }
        }
        return Optional.empty();
    }

    private ClusterRun adopt(ClusterJob current, JobLabels labels, JobFingerprint.Parts fingerprint) {
        long generation = identity.generation(current.id());
        LOG.info(
                "Adopted Flink job '{}' ({}, generation {}, {}) on {}: it runs this application's job unchanged"
                        + " (fingerprint {}), submitted by {} at {}; nothing was submitted",
                identity.name(),
                current.id(),
                generation,
                current.state(),
                target,
                fingerprint.fingerprint(),
                labels.instance(),
                current.startedAt());
        return new ClusterRun(
                connection.client(current.id()),
                generation,
                ClusterRun.How.ADOPTED,
                fingerprint.fingerprint(),
                labels.fingerprint(),
                labels.instance(),
                null);
    }

    private @Nullable ClusterRun start(
            Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint, ClusterJobs.Snapshot snapshot)
            throws Exception {
        StorageStates.Found stored = storage.scan();
        RetainedState newest = stored.newest();
        for (ClusterJob run : snapshot.runs()) {
            newest = RetainedState.newer(newest, jobs.latestState(run.id()).orElse(null));
        }
        String restorePath = flink.getRestorePath();
        RetainedState from;
        if (restorePath != null) {
            from = new RetainedState(
                    restorePath, "savepoint or checkpoint", -1, Instant.EPOCH, "streamsplit.flink.restore-path");
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
        long generation = Math.max(submitter.nextGeneration(snapshot), stored.lastGeneration() + 1);
        return submitter.submit(
                graph, fingerprint, generation, from, from == null ? ClusterRun.How.SUBMITTED : ClusterRun.How.RESUMED);
    }

    private @Nullable ClusterRun upgrade(
            Supplier<StreamGraph> graph, JobFingerprint.Parts fingerprint, ClusterJob current, JobLabels labels)
            throws Exception {
        UpgradeMode mode = flink.getUpgradeMode();
        RetainedState from;
        long started = System.nanoTime();
        if (mode == UpgradeMode.SAVEPOINT && current.state() == JobStatus.RUNNING) {
            from = stopper.stopWithSavepoint(current);
            if (from == null) {
                return null;
            }
        } else if (mode == UpgradeMode.STATELESS) {
            stopper.cancel(current);
            from = null;
        } else {
            if (mode == UpgradeMode.SAVEPOINT) {
                LOG.warn(
                        "Flink job '{}' ({}) is {}, not RUNNING: no savepoint can be taken, so it is upgraded from its"
                                + " latest retained checkpoint (as upgrade-mode last-state)",
                        identity.name(),
                        current.id(),
                        current.state());
            }
            stopper.requireRetainedCheckpoint(current, mode);
            stopper.cancel(current);
            // a checkpoint may have completed between the check and the cancel
            from = jobs.latestCheckpoint(current.id()).orElseThrow();
        }
        long generation = submitter.nextGeneration(jobs.read());
        LOG.info(
                "Upgrading Flink job '{}' on {} (upgrade-mode {}): run {} (generation {}, fingerprint {}, submitted by"
                        + " {}) runs another version of this application (changed: {}); {} in {} ms; submitting"
                        + " generation {} (fingerprint {}) {}",
                identity.name(),
                target,
                mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                current.id(),
                identity.generation(current.id()),
                labels.fingerprint(),
                labels.instance(),
                String.join(", ", fingerprint.changedFrom(labels.fingerprintParts())),
                from != null && from.kind().equals("savepoint") ? "stopped with a savepoint" : "cancelled",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                generation,
                fingerprint.fingerprint(),
                from == null ? "without state" : "from " + from.describe());
        return submitter.submit(graph, fingerprint, generation, from, ClusterRun.How.UPGRADED);
    }

    private void refuseStrangers(ClusterJobs.Snapshot snapshot) {
        if (!snapshot.strangers().isEmpty()) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.job-name",
                    identity.name(),
                    "Flink job(s) named '" + identity.name() + "' already run on " + target + " " + snapshot.strangers()
                            + ", but not as runs of this job (an older StreamSplit or another program submitted them);"
                            + " a second job would read the same topics and write the same transactions",
                    "Stop them (cancel, or stop with a savepoint and start this application with"
                            + " streamsplit.flink.restore-path=<the savepoint>), or give this application its own"
                            + " streamsplit.flink.job-name.");
        }
    }

    private void requireSameOwner(ClusterJob current, JobLabels labels) {
        String theirs = labels.owner();
        if (theirs != null && !theirs.equals(owner) && !JobLabels.UNKNOWN_OWNER.equals(owner)) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.job-name",
                    identity.name(),
                    "Flink job '" + identity.name() + "' on " + target + " (" + current.id() + ") belongs to another"
                            + " application, " + theirs + " (submitted by " + labels.instance()
                            + "); this application is "
                            + owner + ", and one job name is one job",
                    "Give one of the two applications its own streamsplit.flink.job-name (or spring.application.name)."
                            + " If this application replaces the other (its main class moved), stop the other's job"
                            + " with a savepoint and start this one with streamsplit.flink.restore-path=<the savepoint>.");
        }
    }

    /** Cancels runs of the job that should not be active beside the newest (two instances of an old version). */
    private void stopOlderRuns(List<ClusterJob> older) throws Exception {
        for (ClusterJob run : older) {
            LOG.warn(
                    "Flink job '{}' has more than one active run on {}: cancelling generation {} ({}), older than the"
                            + " newest; two runs would write the same transactions",
                    identity.name(),
                    target,
                    identity.generation(run.id()),
                    run.id());
            stopper.cancel(run);
        }
    }

    private static RetainedCheckpoints.Checkpoint checkpoint(RetainedState state) {
        String directory = state.kind().equals("checkpoint")
                ? new org.apache.flink.core.fs.Path(state.path()).getParent().toString()
                : state.path();
        return new RetainedCheckpoints.Checkpoint(state.path(), state.checkpointId(), state.completedAt(), directory);
    }
}
