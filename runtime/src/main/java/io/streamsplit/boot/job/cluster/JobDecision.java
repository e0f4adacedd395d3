package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.job.cluster.ClusterView.ActiveRun;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.jspecify.annotations.Nullable;

/**
 * What the application does about its job on a cluster, decided from one look at the cluster
 * ({@link ClusterView}) and what the application is ({@link Application}). {@link #decide} is a pure
 * function: the REST calls that read the view and carry the decision out are {@link ClusterJobs} and
 * {@link ClusterJobController}, so every case is a row in a table of its test.
 *
 * <p>The rules, in order: a cluster that does not answer is waited for; jobs of the job's name that are
 * not runs of it, or a run labelled with another application, are refused; older active runs are
 * cancelled; a run that is starting, being stopped or not labelled yet is waited for; the run this
 * instance follows is kept; a run of this version is adopted, one of another version is upgraded by an
 * instance that is starting (the newest deploy wins) and followed by one that runs; with no run active, a
 * starting instance starts the job, a running one puts back a run the cluster has forgotten (a JobManager
 * restarted without high availability, a new cluster) and leaves a run alone that was cancelled, failed
 * for good or finished.
 */
sealed interface JobDecision {

    /** Nothing to do: the run this instance follows is the job's active run. */
    record Keep(ActiveRun run) implements JobDecision {}

    /**
     * Attach to {@code run}: adopt it (it runs this version, found at start-up) or follow it.
     *
     * @param why what the log says about it, {@code null} for nothing (an older version following a newer run)
     */
    record Attach(
            ActiveRun run, ClusterRun.How how, @Nullable String why) implements JobDecision {

        Attach(ActiveRun run, ClusterRun.How how) {
            this(run, how, null);
        }
    }

    /**
     * Replace {@code run}, another version of the application, with this one.
     *
     * @param mode how: {@code savepoint} falls back to {@code last-state} for a run that is not RUNNING
     * @param notRunning whether that fallback happened (the run could not take a savepoint)
     */
    record Upgrade(ActiveRun run, UpgradeMode mode, boolean notRunning) implements JobDecision {}

    /**
     * No run is active: submit one.
     *
     * @param generation the lowest generation it can have by what the cluster lists and this instance followed
     * @param putBack whether it puts back a run the cluster forgot (rather than starting the application's job)
     */
    record Start(long generation, boolean putBack) implements JobDecision {}

    /** More than one run is active: cancel these, older than the newest, then look again. */
    record CancelOlder(List<ClusterJob> runs) implements JobDecision {}

    /** Look again later. */
    record Wait(Why why, String reason) implements JobDecision {}

    /** The cluster runs something this application must not touch; nothing is changed. */
    record Refuse(String problem, String fix) implements JobDecision {}

    /**
     * The job ended without this application stopping it, and nothing replaced it: leave it so.
     *
     * @param run the run that ended
     */
    record LeaveStopped(ClusterJob run) implements JobDecision {}

    /** Why a {@link Wait}. */
    enum Why {
        /** The cluster did not answer, or answered with an error. */
        NOT_ANSWERING,
        /** The newest run is being created or initialized. */
        STARTING,
        /** The newest run is being cancelled or failing. */
        STOPPING,
        /** The newest run does not show its labels yet (the cluster's REST cache lags its start). */
        LABELS,
        /** The run this instance followed has just ended: another instance may be submitting the next. */
        SUCCESSOR,
        /** The cluster recovers its jobs itself (high availability): a missing run is not put back. */
        RECOVERY,
        /** The job was stopped from the {@code streamsplit} endpoint and waits for the operator's start. */
        OPERATOR
    }

    /**
     * What the application is, for the decision.
     *
     * @param phase where this instance stands
     * @param attached the run this instance follows, {@code null} before it follows one
     * @param attachedGeneration that run's generation, 0 before it follows one
     * @param fingerprint this version's {@link JobFingerprint}
     * @param owner this application (its main class), or {@link JobLabels#UNKNOWN_OWNER}
     * @param version this application's version ({@code spring.application.version}), {@code null} when unknown
     * @param allowDowngrade whether it replaces a run of a newer version ({@code streamsplit.flink.allow-downgrade})
     * @param upgradeMode {@code streamsplit.flink.upgrade-mode}
     * @param successorWait how long after the followed run ended another instance may still submit the next
     *     (an upgrade stops the old run, then submits): {@code streamsplit.flink.shutdown.timeout}
     * @param lastLook at start-up, whether this is the last look: a run that still shows no labels is then
     *     taken for one of another version (submitted by an older StreamSplit)
     * @param clusterRecoversJobs whether the cluster runs with high availability, so a restarted JobManager
     *     recovers its jobs itself
     */
    record Application(
            Phase phase,
            @Nullable JobID attached,
            long attachedGeneration,
            String fingerprint,
            String owner,
            @Nullable String version,
            boolean allowDowngrade,
            UpgradeMode upgradeMode,
            Duration successorWait,
            boolean lastLook,
            boolean clusterRecoversJobs) {

        /** This application, on a cluster that does ({@code true}) or does not recover its jobs itself. */
        Application withRecovery(boolean recovers) {
            return new Application(
                    phase,
                    attached,
                    attachedGeneration,
                    fingerprint,
                    owner,
                    version,
                    allowDowngrade,
                    upgradeMode,
                    successorWait,
                    lastLook,
                    recovers);
        }
    }

    /** Where an instance of the application stands towards its job. */
    enum Phase {
        /** Starting: it has not attached to a run yet. */
        STARTING,
        /** Running, attached to a run. */
        ATTACHED,
        /** The job was stopped from this instance's {@code streamsplit} endpoint. */
        STOPPED_BY_OPERATOR,
        /** The job ended without the application (cancelled outside, failed for good, finished) and was left so. */
        LEFT_STOPPED
    }

    /** The decision for {@code app} on {@code cluster}. */
    static JobDecision decide(ClusterView cluster, Application app) {
        if (cluster.notAnswering() != null) {
            return new Wait(Why.NOT_ANSWERING, cluster.notAnswering());
        }
        if (!cluster.strangers().isEmpty()) {
            return new Refuse(
                    "Flink job(s) " + cluster.strangers() + " of the job's name already run, but not as runs of"
                            + " this job (an older StreamSplit or another program submitted them); a second job would"
                            + " read the same topics and write the same transactions",
                    "Stop them (cancel, or stop with a savepoint and start this application with"
                            + " streamsplit.flink.restore-path=<the savepoint>), or give this application its own"
                            + " streamsplit.flink.job-name.");
        }
        if (!cluster.older().isEmpty()) {
            return new CancelOlder(cluster.older());
        }
        ActiveRun newest = cluster.newest();
        if (newest != null) {
            return decideActive(newest, app);
        }
        return decideNoneActive(cluster, app);
    }

    private static JobDecision decideActive(ActiveRun newest, Application app) {
        JobStatus state = newest.job().state();
        if (state == JobStatus.CREATED || state == JobStatus.INITIALIZING) {
            return new Wait(Why.STARTING, "run " + newest.id() + " is " + state);
        }
        if (state == JobStatus.CANCELLING || state == JobStatus.FAILING) {
            return new Wait(Why.STOPPING, "run " + newest.id() + " is " + state);
        }
        String theirs = newest.labels().owner();
        if (theirs != null && !theirs.equals(app.owner()) && !JobLabels.UNKNOWN_OWNER.equals(app.owner())) {
            return new Refuse(
                    "Flink job run " + newest.id() + " belongs to another application, " + theirs + " (submitted by "
                            + newest.labels().instance() + "); this application is " + app.owner()
                            + ", and one job name is one job",
                    "Give one of the two applications its own streamsplit.flink.job-name (or"
                            + " spring.application.name). If this application replaces the other (its main class"
                            + " moved), stop the other's job with a savepoint and start this one with"
                            + " streamsplit.flink.restore-path=<the savepoint>.");
        }
        if (newest.id().equals(app.attached())) {
            return new Keep(newest);
        }
        if (!newest.labelled() && !(app.phase() == Phase.STARTING && app.lastLook())) {
            return new Wait(Why.LABELS, "run " + newest.id() + " shows no labels yet");
        }
        if (app.fingerprint().equals(newest.labels().fingerprint())) {
            return new Attach(newest, app.phase() == Phase.STARTING ? ClusterRun.How.ADOPTED : ClusterRun.How.FOLLOWED);
        }
        if (app.phase() != Phase.STARTING) {
            // a running instance never upgrades: the run is a newer deploy's, or one another instance put back
            return new Attach(newest, ClusterRun.How.FOLLOWED);
        }
        String runVersion = newest.labels().version();
        if (!app.allowDowngrade()
                && app.version() != null
                && runVersion != null
                && AppVersion.compare(app.version(), runVersion) < 0) {
            // an old instance restarting during a rolling update: the newer deploy's run stays
            return new Attach(
                    newest,
                    ClusterRun.How.FOLLOWED,
                    "run " + newest.id() + " runs version " + runVersion + " of the application, newer than this"
                            + " instance's " + app.version() + ": it follows that run instead of putting its own"
                            + " version back. To roll back on purpose, start this version with"
                            + " streamsplit.flink.allow-downgrade=true");
        }
        boolean notRunning = app.upgradeMode() == UpgradeMode.SAVEPOINT && state != JobStatus.RUNNING;
        return new Upgrade(newest, notRunning ? UpgradeMode.LAST_STATE : app.upgradeMode(), notRunning);
    }

    private static JobDecision decideNoneActive(ClusterView cluster, Application app) {
        long next = Math.max(cluster.lastGeneration() + 1, app.attachedGeneration() + 1);
        return switch (app.phase()) {
            case STARTING -> new Start(next, false);
            case STOPPED_BY_OPERATOR -> new Wait(Why.OPERATOR, "stopped from the streamsplit endpoint");
            case LEFT_STOPPED, ATTACHED -> {
                JobID attached = app.attached();
                Optional<ClusterJob> listed = attached == null ? Optional.empty() : cluster.run(attached);
                if (listed.isEmpty()) {
                    if (app.phase() == Phase.LEFT_STOPPED) {
                        yield new Wait(Why.OPERATOR, "left stopped; restart the application to start it");
                    }
                    yield app.clusterRecoversJobs()
                            ? new Wait(Why.RECOVERY, "run " + attached + " is not listed; the cluster recovers it")
                            : new Start(next, true);
                }
                ClusterJob ended = listed.get();
                Duration since =
                        ended.endedAt() == null ? Duration.ZERO : Duration.between(ended.endedAt(), cluster.now());
                if (app.phase() == Phase.ATTACHED && since.compareTo(app.successorWait()) < 0) {
                    yield new Wait(
                            Why.SUCCESSOR,
                            "run " + attached + " ended (" + ended.state() + ") " + since.toSeconds()
                                    + " s ago; waiting for a run that replaces it");
                }
                yield new LeaveStopped(ended);
            }
        };
    }
}
