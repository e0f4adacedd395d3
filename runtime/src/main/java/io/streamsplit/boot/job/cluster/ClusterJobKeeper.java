package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.flink.rest.RestPoller;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the application's job on the cluster for as long as the application runs: every
 * {@code streamsplit.flink.remote.watch-interval} it takes one {@link ClusterJobController#look} and
 * says what changed, once: the cluster stopped answering (WARN) and answers again (INFO), the run was put
 * back after the cluster forgot it, another instance's run replaced the one this instance followed, the
 * job was cancelled outside the application (WARN, left stopped), failed for good (ERROR) or finished.
 * What it saw last is {@link #status()}, which health reads.
 */
public final class ClusterJobKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterJobKeeper.class);

    private final ClusterJobController controller;
    private final Supplier<StreamGraph> graph;
    private final JobFingerprint.Parts fingerprint;
    private final Consumer<ClusterRun> follow;
    private final Supplier<JobDecision.@Nullable Phase> phase;
    private final RestPoller poller;
    private final String name;

    private volatile @Nullable ClusterRun run;
    private volatile Status status;
    private boolean leftStopped;
    private @Nullable Instant notAnsweringSince;
    private boolean warnedNotAnswering;
    private @Nullable JobDecision reported;

    /**
     * Starts looking after the job.
     *
     * @param run the run this instance follows after start-up
     * @param graph builds the job, for a run put back
     * @param follow told of every run this instance follows from now on
     * @param operatorStopped whether the job was stopped from the {@code streamsplit} endpoint
     * @param busy whether the application is changing the job itself (stopping it, submitting it): no look then
     */
    public ClusterJobKeeper(
            ClusterJobController controller,
            Duration interval,
            ClusterRun run,
            Supplier<StreamGraph> graph,
            JobFingerprint.Parts fingerprint,
            Consumer<ClusterRun> follow,
            BooleanSupplier operatorStopped,
            BooleanSupplier busy) {
        this.controller = controller;
        this.graph = graph;
        this.fingerprint = fingerprint;
        this.follow = follow;
        this.name = controller.identity().name();
        this.run = run;
        this.status = new Status(Instant.now(), null, null, null, true);
        this.phase = () -> {
            if (busy.getAsBoolean()) {
                return null;
            }
            if (operatorStopped.getAsBoolean()) {
                return JobDecision.Phase.STOPPED_BY_OPERATOR;
            }
            return leftStopped ? JobDecision.Phase.LEFT_STOPPED : JobDecision.Phase.ATTACHED;
        };
        this.poller = new RestPoller("streamsplit-keeper-" + name, interval, this::lookOnce);
    }

    /** The run this instance follows now (a run another instance submitted or one put back replaces it). */
    public void following(ClusterRun current) {
        run = current;
        leftStopped = false;
    }

    /**
     * What the latest look saw.
     *
     * @param at when
     * @param notAnsweringSince since when the cluster has not answered, {@code null} while it answers
     * @param notAnswering why it did not answer the latest look, {@code null} when it did
     * @param decision what was decided, {@code null} before the first look
     * @param runSeenActive whether the latest look saw the followed run active on the cluster
     */
    public record Status(
            Instant at,
            @Nullable Instant notAnsweringSince,
            @Nullable String notAnswering,
            @Nullable JobDecision decision,
            boolean runSeenActive) {

        /** A reason health says DOWN for, whatever the run's own state: {@code null} when none. */
        public @Nullable String problem(Instant now, Duration grace, String target) {
            if (notAnsweringSince != null) {
                Duration down = Duration.between(notAnsweringSince, now);
                return down.compareTo(grace) >= 0
                        ? target + " has not answered for " + down.toSeconds() + " s (" + notAnswering + ")"
                        : null;
            }
            if (decision instanceof JobDecision.Start) {
                return "the job is no longer on " + target + " (its JobManager restarted without high availability,"
                        + " or the cluster was replaced); the application is putting it back";
            }
            if (decision instanceof JobDecision.Wait wait && wait.why() == JobDecision.Why.RECOVERY) {
                return "the job is not listed on " + target + ", which recovers it itself (high availability)";
            }
            if (decision instanceof JobDecision.Refuse refuse) {
                return refuse.problem();
            }
            if (decision instanceof JobDecision.LeaveStopped left) {
                return left.run().state() == JobStatus.CANCELED
                        ? "the job was cancelled outside the application ("
                                + left.run().id() + "); restart the"
                                + " application to start it again from its newest retained state"
                        : left.run().state() == JobStatus.FAILED
                                ? "the job failed for good (" + left.run().id() + "); fix the cause and restart the"
                                        + " application: it resumes from the job's newest retained state"
                                : null;
            }
            return null;
        }

        /** While the cluster has not answered past {@code grace}: "not answering for 42 s", else {@code null}. */
        public @Nullable String unreachableFor(Instant now) {
            return notAnsweringSince == null
                    ? null
                    : "not answering for "
                            + Duration.between(notAnsweringSince, now).toSeconds() + " s";
        }
    }

    /** What the latest look saw. */
    public Status status() {
        return status;
    }

    /** One look: read, decide, carry out, say what changed (every watch-interval; tests call it directly). */
    synchronized void lookOnce() {
        JobDecision.Phase now = phase.get();
        if (now == null) {
            return;
        }
        ClusterRun current = run;
        ClusterJobController.Look look;
        try {
            look = controller.look(now, current, graph, fingerprint);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            // the cluster answered the look, then failed the change (a submission, a cancel): the next look decides
            LOG.warn(
                    "Flink job '{}' on {}: could not carry out what the application decided: {}; it looks again in"
                            + " a moment",
                    name,
                    controller.target(),
                    ClusterJobs.describe(e));
            return;
        }
        answered(look.view(), current);
        report(look.decision(), current);
        if (look.run() != null) {
            following(look.run());
            follow.accept(look.run());
        }
        status = new Status(
                look.view().now(),
                notAnsweringSince,
                look.view().notAnswering(),
                look.decision(),
                look.decision() instanceof JobDecision.Keep);
    }

    private void answered(ClusterView view, @Nullable ClusterRun current) {
        if (view.notAnswering() != null) {
            if (notAnsweringSince == null) {
                notAnsweringSince = view.now();
                LOG.debug("Flink job '{}': {} did not answer: {}", name, controller.target(), view.notAnswering());
            } else if (!warnedNotAnswering) {
                warnedNotAnswering = true;
                LOG.warn(
                        "Flink job '{}': {} has not answered since {} ({}); the application cannot see or keep its job"
                                + " meanwhile, and health goes DOWN once that lasts streamsplit.health.unreachable-grace",
                        name,
                        controller.target(),
                        notAnsweringSince,
                        view.notAnswering());
            }
            return;
        }
        if (notAnsweringSince != null) {
            if (warnedNotAnswering) {
                LOG.info(
                        "Flink job '{}': {} answers again, after {} s{}",
                        name,
                        controller.target(),
                        Duration.between(notAnsweringSince, view.now()).toSeconds(),
                        current != null && view.run(current.jobId()).isEmpty()
                                ? "; it no longer lists run " + current.jobId()
                                : "");
            }
            notAnsweringSince = null;
            warnedNotAnswering = false;
        }
    }

    /** Logs a decision that changes what the application does, once. */
    private void report(JobDecision decision, @Nullable ClusterRun current) {
        JobDecision before = reported;
        reported = decision;
        if (decision instanceof JobDecision.Attach attach && current != null) {
            LOG.info(
                    "Flink job '{}' run {} was replaced by run {} (generation {}{}, submitted by {}): this instance"
                            + " now follows it",
                    name,
                    current.jobId(),
                    attach.run().id(),
                    attach.run().generation(),
                    fingerprint.fingerprint().equals(attach.run().labels().fingerprint())
                            ? ""
                            : ", another version of this application",
                    attach.run().labels().instance());
        } else if (decision instanceof JobDecision.LeaveStopped left && !(before instanceof JobDecision.LeaveStopped)) {
            leftStopped = true;
            ClusterJob ended = left.run();
            if (ended.state() == JobStatus.FAILED) {
                LOG.error(
                        "Flink job '{}' ({}) on {} failed for good after its restarts; the last cause is in the log"
                                + " above and in health. Fix it and restart the application: it resumes from the job's"
                                + " newest retained checkpoint.",
                        name,
                        ended.id(),
                        controller.target());
            } else if (ended.state() == JobStatus.CANCELED) {
                LOG.warn(
                        "Flink job '{}' ({}) on {} was cancelled outside the application and no other run replaced"
                                + " it; it stays stopped and health is DOWN. Restart the application to start it again"
                                + " from its newest retained state.",
                        name,
                        ended.id(),
                        controller.target());
            } else {
                LOG.info("Flink job '{}' ({}) on {} is {}", name, ended.id(), controller.target(), ended.state());
            }
        } else if (decision instanceof JobDecision.Refuse refuse && !(before instanceof JobDecision.Refuse)) {
            LOG.error(
                    "Flink job '{}' on {}: {}. The application changes nothing on the cluster. {}",
                    name,
                    controller.target(),
                    refuse.problem(),
                    refuse.fix());
        }
    }

    @Override
    public void close() {
        poller.stop();
    }
}
