package io.streamsplit.boot.actuate;

import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.cluster.ClusterJobKeeper;
import io.streamsplit.boot.job.replica.ReplicaElection;
import io.streamsplit.boot.kafka.KafkaProblem;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of the application's Flink job, UP only while it makes progress: RUNNING, and checkpoints
 * completing. Until the first checkpoint a running job is UNKNOWN for a grace period (one checkpoint
 * interval plus {@code streamsplit.health.startup-grace} from submission); past it, a job that never completed a
 * checkpoint is DOWN, as is one whose last checkpoint is older than
 * {@code streamsplit.health.max-checkpoint-age}. The reason says what holds it back: the checkpoint in
 * flight and the operator it waits on, the latest failure in StreamSplit's words, or a problem of the
 * Kafka startup check ({@code startup-check.mode: warn}). RESTARTING is OUT_OF_SERVICE (DOWN past the
 * grace period without any checkpoint), FAILED and a cancel from outside DOWN, a stop by the application
 * OUT_OF_SERVICE. On a cluster, what the application last saw there comes first: a cluster that has not
 * answered for {@code streamsplit.health.unreachable-grace}, a job the cluster no longer lists (being put
 * back), one cancelled outside or failed for good, or a run the application must not touch are DOWN;
 * a cluster that does not answer (health's own reads, or the keeper's) is OUT_OF_SERVICE before that.
 * Values are read when health is asked; restarts in-process in embedded mode, else
 * from Flink's REST API (its metrics are up to {@code metrics.fetcher.update-interval} old). Never
 * shows client properties.
 */
public class StreamSplitHealthIndicator implements HealthIndicator {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final StreamSplitJob job;
    private final @Nullable Duration checkpointInterval;
    private final Duration maxCheckpointAge;
    private final KafkaSplitStates splits;
    private final JobProgress progress;
    private final Supplier<List<KafkaProblem>> startupProblems;
    private final Duration startupGrace;
    private final Duration unreachableGrace;
    private final Supplier<Map<String, Object>> sinkFreshness;
    private final @Nullable Long maxLag;

    public StreamSplitHealthIndicator(
            StreamSplitJob job,
            @Nullable Duration checkpointInterval,
            Duration maxCheckpointAge,
            KafkaSplitStates splits,
            JobProgress progress,
            Supplier<List<KafkaProblem>> startupProblems,
            Duration startupGrace,
            Duration unreachableGrace,
            Supplier<Map<String, Object>> sinkFreshness,
            @Nullable Long maxLag) {
        this.maxLag = maxLag;
        this.startupGrace = startupGrace;
        this.unreachableGrace = unreachableGrace;
        this.sinkFreshness = sinkFreshness;
        this.job = job;
        this.checkpointInterval = checkpointInterval;
        this.maxCheckpointAge = maxCheckpointAge;
        this.splits = splits;
        this.progress = progress;
        this.startupProblems = startupProblems;
    }

    /** The effective threshold: configured, else five checkpoint intervals but at least a minute. */
    public static Duration maxCheckpointAge(@Nullable Duration configured, Duration checkpointInterval) {
        if (configured != null) {
            return configured;
        }
        Duration five = checkpointInterval.multipliedBy(5);
        return five.compareTo(Duration.ofMinutes(1)) < 0 ? Duration.ofMinutes(1) : five;
    }

    /** The grace period before a job without any completed checkpoint counts as stuck. */
    Duration grace() {
        return (checkpointInterval == null ? Duration.ZERO : checkpointInterval).plus(startupGrace);
    }

    @Override
    public Health health() {
        CompletableFuture<JobClient> submission = job.submission();
        Health.Builder health = new Health.Builder().withDetail("job", job.jobName());
        List<KafkaProblem> problems = startupProblems.get();
        if (!problems.isEmpty()) {
            health.withDetail(
                    "kafkaProblems",
                    problems.stream().map(KafkaProblem::summary).toList());
        }
        String savepoint = job.commands().operatorSavepoint();
        if (savepoint != null) {
            return health.status(Status.OUT_OF_SERVICE)
                    .withDetail("status", "STOPPED")
                    .withDetail("savepoint", savepoint)
                    .withDetail(
                            "reason",
                            "stopped with a savepoint from the streamsplit endpoint; POST"
                                    + " {\"operation\":\"start\"} resumes it")
                    .build();
        }
        ReplicaElection.Status replica = job.replicaStatus();
        if (replica != null) {
            health.withDetail("role", replica.role().name().toLowerCase(java.util.Locale.ROOT))
                    .withDetail("instance", replica.self());
            if (replica.active() != null) {
                health.withDetail("activeInstance", replica.active());
            }
            if (replica.role() != ReplicaElection.Role.ACTIVE) {
                return standby(replica, job.replicaServers(), health);
            }
        }
        if (!submission.isDone()) {
            // not ready: nothing runs yet
            return health.status(Status.OUT_OF_SERVICE)
                    .withDetail("status", "SUBMITTING")
                    .withDetail("reason", "the job is being submitted")
                    .build();
        }
        if (submission.isCompletedExceptionally()) {
            String reason = submission.handle((c, e) -> e.getMessage()).join();
            return (job.hasNothingToRun() ? health.up() : health.down())
                    .withDetail("status", "NOT_SUBMITTED")
                    .withDetail("reason", reason)
                    .build();
        }
        JobClient client = submission.join();
        String jobId = client.getJobID().toString();
        health.withDetail("jobId", jobId);
        Instant now = Instant.now();
        ClusterJobKeeper.Status seen = job.clusterStatus();
        if (seen != null) {
            String problem = seen.problem(now, unreachableGrace, job.target());
            if (problem != null) {
                return health.down()
                        .withDetail("reason", problem)
                        .withDetail("seenAt", seen.at().toString())
                        .build();
            }
            String unreachable = seen.unreachableFor(now);
            if (unreachable != null) {
                // whether the job makes progress cannot be seen: not UP, and DOWN once the grace period is over
                return health.status(Status.OUT_OF_SERVICE)
                        .withDetail(
                                "reason",
                                job.target() + " is " + unreachable + " (DOWN after " + unreachableGrace.toSeconds()
                                        + " s, streamsplit.health.unreachable-grace): " + seen.notAnswering())
                        .withDetail("seenAt", seen.at().toString())
                        .build();
            }
        }
        try {
            JobStatus status = client.getJobStatus().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            health.withDetail("status", status.name());
            JobCheckpoints checkpoints = progress.read(jobId);
            health.withDetail("restarts", checkpoints.restarts())
                    .withDetail("readAt", now.toString())
                    .withDetail("lastCheckpoint", checkpoints.details(now));
            if (progress.restartsFromMetricStore(jobId)) {
                health.withDetail("restartsAsOf", "Flink's metric store (up to metrics.fetcher.update-interval old)");
            }
            if (checkpoints.failure() != null) {
                health.withDetail("lastFailure", checkpoints.failure());
            }
            Instant submitted = checkpoints.submittedAt() != null ? checkpoints.submittedAt() : now;
            Supplier<JobSplits> read = once(splits::read);
            statusFor(status, checkpoints, Duration.between(submitted, now), now, health, problems, read);
            if (status == JobStatus.RUNNING) {
                health.withDetail("sources", sourceSummary(read.get()));
                Map<String, Object> freshness = sinkFreshness.get();
                if (!freshness.isEmpty()) {
                    health.withDetail("sinkFreshness", freshness);
                }
            }
        } catch (Exception e) {
            // the cluster did not answer health's own reads: its progress cannot be seen, so not UP
            health.status(Status.OUT_OF_SERVICE)
                    .withDetail("reason", "could not read the job's state from " + job.target() + ": " + e);
        }
        return health.build();
    }

    /**
     * A standby runs no job: UP while it follows the election (ready to take over), OUT_OF_SERVICE while it
     * joins, DOWN when it cannot join at all, UNKNOWN while it cannot reach the group once in it (it could not take
     * over now; the job itself runs elsewhere).
     */
    private Health standby(ReplicaElection.Status replica, String servers, Health.Builder health) {
        health.withDetail("status", "STANDBY")
                .withDetail("since", replica.since().toString());
        if (replica.otherApplication() != null) {
            return health.down()
                    .withDetail(
                            "reason",
                            "application '" + replica.otherApplication() + "' runs a job of the same name on this"
                                    + " Kafka, and the two share one replicas' election: give each application its"
                                    + " own streamsplit.flink.job-name")
                    .build();
        }
        if (replica.problem() != null && replica.role() == ReplicaElection.Role.JOINING) {
            // never got into the election (not allowed, Kafka away): no instance may be running the job
            return health.down()
                    .withDetail(
                            "reason",
                            "cannot join the replicas' election: " + replica.problem()
                                    + "; this instance cannot run the job")
                    .build();
        }
        if (replica.problem() != null) {
            return health.unknown()
                    .withDetail(
                            "reason",
                            "standing by, but cannot follow the replicas' election: " + replica.problem()
                                    + "; this instance cannot take over the job until it can")
                    .build();
        }
        Duration joining = Duration.between(replica.since(), Instant.now());
        if (replica.role() == ReplicaElection.Role.JOINING && joining.compareTo(grace()) > 0) {
            // the job runs nowhere this instance could know of: Kafka does not let it join
            return health.down()
                    .withDetail(
                            "reason",
                            "this instance has not joined the replicas' election in " + joining.toSeconds()
                                    + " s: Kafka at " + servers + " does not answer its group coordinator requests,"
                                    + " so the job does not run here")
                    .build();
        }
        if (replica.role() == ReplicaElection.Role.JOINING) {
            return health.status(Status.OUT_OF_SERVICE)
                    .withDetail("reason", "joining the replicas' election")
                    .build();
        }
        return health.up()
                .withDetail(
                        "reason",
                        "standing by: the job runs on "
                                + (replica.active() != null ? replica.active() : "another instance")
                                + "; this instance takes over when that one stops")
                .build();
    }

    /** The same failure this many times in a row, with no checkpoint between, is a loop. */
    static final int FAILURE_LOOP = 2;

    private void statusFor(
            JobStatus status,
            JobCheckpoints checkpoints,
            Duration sinceSubmission,
            Instant now,
            Health.Builder health,
            List<KafkaProblem> problems,
            Supplier<JobSplits> read) {
        boolean progressing = status == JobStatus.RUNNING || status == JobStatus.RESTARTING;
        if (progressing && checkpoints.failureRepeats() >= FAILURE_LOOP && checkpoints.failure() != null) {
            // the same failure again after a restart, with no checkpoint between: it will not pass by itself
            health.down()
                    .withDetail(
                            "reason",
                            "failing in a loop: the same failure " + checkpoints.failureRepeats()
                                    + " times in a row since the last completed checkpoint (restart "
                                    + checkpoints.restarts() + "): " + checkpoints.failure());
            return;
        }
        // subtasks waiting for slots explain every other symptom (no checkpoint can even start)
        if (status == JobStatus.RUNNING && tasksNotRunning(checkpoints, now, health)) {
            return;
        }
        if (progressing && checkpointInterval != null) {
            Instant last = checkpoints.lastCheckpointTime();
            Instant since = checkpoints.runningSince() != null ? checkpoints.runningSince() : now;
            if (last == null && sinceSubmission.compareTo(grace()) > 0) {
                health.down()
                        .withDetail(
                                "reason",
                                "no checkpoint has completed in the " + sinceSubmission.toSeconds()
                                        + " s since the job was submitted (grace " + grace().toSeconds()
                                        + " s: one checkpoint"
                                        + " interval + streamsplit.health.startup-grace)"
                                        + because(checkpoints, problems));
                return;
            }
            if (last != null
                    && since.isAfter(last)
                    && Duration.between(last, now).compareTo(grace()) > 0) {
                health.down()
                        .withDetail(
                                "reason",
                                "no checkpoint has completed since the job restarted (the last one "
                                        + Duration.between(last, now).toSeconds() + " s ago, restart "
                                        + checkpoints.restarts() + ")"
                                        + because(checkpoints, problems));
                return;
            }
            Duration age = checkpoints.age(now);
            if (age != null && age.compareTo(maxCheckpointAge) > 0) {
                health.down()
                        .withDetail(
                                "reason",
                                "no checkpoint completed for " + age.toSeconds() + " s (limit "
                                        + maxCheckpointAge.toSeconds() + " s, streamsplit.health.max-checkpoint-age)"
                                        + because(checkpoints, problems));
                return;
            }
            Instant failed = checkpoints.lastFailureTime();
            if (status == JobStatus.RUNNING
                    && failed != null
                    && Duration.between(failed, now).compareTo(grace()) < 0) {
                health.status(Status.OUT_OF_SERVICE)
                        .withDetail(
                                "reason",
                                "recovering: the job failed "
                                        + Duration.between(failed, now).toSeconds() + " s ago and restarted (restart "
                                        + checkpoints.restarts() + ")" + because(checkpoints, problems));
                return;
            }
            if (status == JobStatus.RUNNING && undiscovered(read.get(), checkpoints, now, health, problems)) {
                return;
            }
            if (status == JobStatus.RUNNING && gonePartitions(read.get(), health)) {
                return;
            }
            if (status == JobStatus.RUNNING && (last == null || since.isAfter(last))) {
                // not ready until the job shows it can make progress: a completed checkpoint
                health.status(Status.OUT_OF_SERVICE)
                        .withDetail(
                                "reason",
                                "waiting for the first checkpoint since the job "
                                        + (checkpoints.restarts() > 0 ? "restarted" : "started"));
                return;
            }
        }
        if (status == JobStatus.RUNNING && behind(read.get(), health)) {
            return;
        }
        switch (status) {
            case RUNNING -> health.up();
            case RESTARTING ->
                health.status(Status.OUT_OF_SERVICE)
                        .withDetail(
                                "reason",
                                "restarting after a failure (restart " + checkpoints.restarts() + ")"
                                        + because(checkpoints, problems));
            case CREATED, INITIALIZING, RECONCILING ->
                health.status(Status.OUT_OF_SERVICE)
                        .withDetail("reason", "the job is starting or restoring its state (" + status + ")");
            case FINISHED -> health.up().withDetail("reason", "all bounded sources were read to their end");
            case CANCELLING, CANCELED -> {
                if (job.isStopping()) {
                    health.status(Status.OUT_OF_SERVICE).withDetail("reason", "the application is shutting down");
                } else {
                    health.down().withDetail("reason", "the job was cancelled outside the application");
                }
            }
            default ->
                health.down()
                        .withDetail(
                                "reason",
                                "the job is " + status
                                        + (checkpoints.failure() != null ? ": " + checkpoints.failure() : ""));
        }
    }

    /**
     * A RUNNING job whose subtasks are not all running cannot make progress (a TaskManager is gone and
     * no slot is free for its tasks, or they are still being deployed): DOWN once it has been so past
     * the grace period, UNKNOWN before. Returns whether the job is in that state.
     */
    private boolean tasksNotRunning(JobCheckpoints checkpoints, Instant now, Health.Builder health) {
        String lagging = checkpoints.tasksNotRunning();
        if (lagging == null) {
            return false;
        }
        Instant since = checkpoints.runningSince() != null ? checkpoints.runningSince() : now;
        Duration running = Duration.between(since, now);
        if (running.compareTo(grace()) > 0) {
            health.down()
                    .withDetail(
                            "reason",
                            "the job is RUNNING but not all its subtasks are, " + running.toSeconds()
                                    + " s after it started: " + lagging
                                    + " (no free task slot took them: the cluster has fewer slots than the job needs,"
                                    + " or a TaskManager was lost; taskmanager.numberOfTaskSlots,"
                                    + " streamsplit.flink.parallelism)");
        } else {
            health.status(Status.OUT_OF_SERVICE).withDetail("reason", "subtasks starting: " + lagging);
        }
        return true;
    }

    /**
     * A source further behind its topics' ends than {@code streamsplit.health.max-lag} allows: the job runs and
     * checkpoints, but an instance catching up is not ready to be relied on (OUT_OF_SERVICE, not DOWN).
     */
    private boolean behind(JobSplits read, Health.Builder health) {
        Long limit = maxLag;
        if (limit == null) {
            return false;
        }
        for (var source : read.sources().entrySet()) {
            if (source.getValue().lag() > limit) {
                health.status(Status.OUT_OF_SERVICE)
                        .withDetail(
                                "reason",
                                "source '" + source.getKey() + "' is "
                                        + source.getValue().lag() + " records behind its" + " topics (limit " + limit
                                        + ", streamsplit.health.max-lag): catching up");
                return true;
            }
        }
        return false;
    }

    /**
     * Partitions a source reads that are gone from Kafka (a topic deleted while the job runs, without partition
     * discovery): the readers stopped fetching them and a topic created again under the name is not read until the
     * job lets go of them, so the job no longer reads all it was configured to: DOWN, saying which and what to do.
     */
    private boolean gonePartitions(JobSplits read, Health.Builder health) {
        Map<String, List<String>> gone = new LinkedHashMap<>();
        read.sources()
                .forEach((name, source) -> source.splits().stream()
                        .filter(SplitState::gone)
                        .forEach(split -> gone.computeIfAbsent(name, n -> new ArrayList<>())
                                .add(split.topic() + "-" + split.partition())));
        if (gone.isEmpty()) {
            return false;
        }
        String source = gone.keySet().iterator().next();
        health.down()
                .withDetail("goneFromKafka", gone)
                .withDetail(
                        "reason",
                        "source '" + source + "' reads partitions " + gone.get(source) + " that no longer exist in"
                                + " Kafka (their topic was deleted while the job ran); it reads no topic created again"
                                + " under that name. Set streamsplit.kafka.sources." + source + ".discovery-interval"
                                + " (e.g. 30s) to let go of deleted partitions and read new ones while running, or"
                                + " restart the application");
        return true;
    }

    /**
     * A source whose enumerator has not found its partitions makes no progress, however many (empty)
     * checkpoints complete: DOWN once the job has been running for the grace period, UNKNOWN before.
     * Returns whether a source is in that state.
     */
    private boolean undiscovered(
            JobSplits read,
            JobCheckpoints checkpoints,
            Instant now,
            Health.Builder health,
            List<KafkaProblem> problems) {
        List<String> waiting = new ArrayList<>();
        read.sources().forEach((name, source) -> {
            if (source.lastDiscovery() == null) {
                waiting.add(name);
            }
        });
        if (waiting.isEmpty()) {
            return false;
        }
        Instant since = checkpoints.runningSince() != null ? checkpoints.runningSince() : now;
        Duration running = Duration.between(since, now);
        String sources = waiting.size() == 1
                ? "source '" + waiting.get(0) + "' has not found its partitions"
                : "sources " + waiting + " have not found their partitions";
        if (running.compareTo(grace()) > 0) {
            health.down()
                    .withDetail(
                            "reason",
                            sources + " in the " + running.toSeconds() + " s the job has been running"
                                    + because(checkpoints, problems));
        } else {
            health.status(Status.OUT_OF_SERVICE).withDetail("reason", sources + " yet");
        }
        return true;
    }

    /** ": checkpoint 7 ... waits on 'X'", ": <latest failure>" or ": <startup problem>", whichever is known. */
    private static String because(JobCheckpoints checkpoints, List<KafkaProblem> problems) {
        if (checkpoints.failure() != null) {
            return ": " + checkpoints.failure();
        }
        if (checkpoints.inFlight() != null) {
            return ": " + checkpoints.inFlight();
        }
        return problems.isEmpty() ? "" : ": " + problems.get(0).summary();
    }

    /** {@code read} called at most once: one health check reads the job's splits once, however many rules look. */
    private static Supplier<JobSplits> once(Supplier<JobSplits> read) {
        JobSplits[] memo = new JobSplits[1];
        return () -> {
            if (memo[0] == null) {
                memo[0] = read.get();
            }
            return memo[0];
        };
    }

    private Map<String, Object> sourceSummary(JobSplits read) {
        Map<String, Object> sources = new LinkedHashMap<>();
        read.sources().forEach((name, source) -> {
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("state", source.state()); // PAUSED is an operator's choice, not a failure
            summary.put("assignedSplits", source.assignedSplits());
            summary.put("pendingSplits", source.pendingSplits().size());
            summary.put("lag", source.lag());
            sources.put(name, summary);
        });
        return sources;
    }
}
