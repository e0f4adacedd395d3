package io.streamsplit.boot.autoconfigure.actuate;

import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.job.StreamSplitJob;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of the application's Flink job. UP while RUNNING with recent checkpoints; DOWN when the
 * job FAILED or was CANCELED by someone else, or when no checkpoint completed for longer than
 * {@code streamsplit.health.max-checkpoint-age}; OUT_OF_SERVICE while RESTARTING (with the restart
 * count); UNKNOWN while being submitted or initialized. Details: job id, name, status, restarts,
 * last completed checkpoint (id, time, age, duration, size), failure cause, and per source the
 * assigned and pending splits and total lag. Never shows client properties.
 */
public class StreamSplitHealthIndicator implements HealthIndicator {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final StreamSplitJob job;
    private final FlinkRestClient rest;
    private final FlinkProperties flink;
    private final Duration maxCheckpointAge;
    private final KafkaSplitStates splits;

    StreamSplitHealthIndicator(
            StreamSplitJob job,
            FlinkRestClient rest,
            FlinkProperties flink,
            Duration maxCheckpointAge,
            KafkaSplitStates splits) {
        this.job = job;
        this.rest = rest;
        this.flink = flink;
        this.maxCheckpointAge = maxCheckpointAge;
        this.splits = splits;
    }

    /** The effective threshold: configured, else five checkpoint intervals but at least a minute. */
    static Duration maxCheckpointAge(Duration configured, FlinkProperties flink) {
        if (configured != null) {
            return configured;
        }
        Duration five = flink.getCheckpointing().getInterval().multipliedBy(5);
        return five.compareTo(Duration.ofMinutes(1)) < 0 ? Duration.ofMinutes(1) : five;
    }

    @Override
    public Health health() {
        CompletableFuture<JobClient> submission = job.submission();
        Health.Builder health = new Health.Builder().withDetail("job", job.jobName());
        if (!submission.isDone()) {
            return health.unknown().withDetail("status", "SUBMITTING").build();
        }
        if (submission.isCompletedExceptionally()) {
            String reason = submission.handle((c, e) -> e.getMessage()).join();
            boolean nothingToRun = !flink.isEnabled() || reason.contains("no StreamSplitPipeline beans");
            return (nothingToRun ? health.up() : health.down())
                    .withDetail("status", "NOT_SUBMITTED")
                    .withDetail("reason", reason)
                    .build();
        }
        JobClient client = submission.join();
        health.withDetail("jobId", client.getJobID().toString());
        Instant now = Instant.now();
        try {
            JobStatus status = client.getJobStatus().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            health.withDetail("status", status.name());
            JobCheckpoints checkpoints =
                    JobCheckpoints.read(rest, client.getJobID().toString());
            health.withDetail("restarts", checkpoints.restarts())
                    .withDetail("lastCheckpoint", checkpoints.details(now));
            if (checkpoints.failure() != null) {
                health.withDetail("lastFailure", checkpoints.failure());
            }
            statusFor(status, checkpoints, client, now, health);
            if (status == JobStatus.RUNNING) {
                health.withDetail("sources", sourceSummary());
            }
        } catch (Exception e) {
            health.unknown().withDetail("error", "could not read the job's state: " + e);
        }
        return health.build();
    }

    private void statusFor(
            JobStatus status, JobCheckpoints checkpoints, JobClient client, Instant now, Health.Builder health)
            throws Exception {
        switch (status) {
            case RUNNING -> {
                if (!flink.getCheckpointing().isEnabled()) {
                    health.up();
                    return;
                }
                Duration age = checkpoints.age(now);
                if (age == null) {
                    long started = rest.job(client.getJobID().toString())
                            .path("start-time")
                            .asLong(now.toEpochMilli());
                    age = Duration.between(Instant.ofEpochMilli(started), now);
                }
                if (age.compareTo(maxCheckpointAge) > 0) {
                    health.down()
                            .withDetail(
                                    "reason",
                                    "no checkpoint completed for " + age.toSeconds() + " s (limit "
                                            + maxCheckpointAge.toSeconds()
                                            + " s, streamsplit.health.max-checkpoint-age)");
                } else {
                    health.up();
                }
            }
            case RESTARTING ->
                health.status(Status.OUT_OF_SERVICE)
                        .withDetail("reason", "restarting after a failure (restart " + checkpoints.restarts() + ")");
            case CREATED, INITIALIZING, RECONCILING -> health.unknown();
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

    private Map<String, Object> sourceSummary() {
        Map<String, Object> sources = new LinkedHashMap<>();
        splits.read().sources().forEach((name, source) -> {
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("assignedSplits", source.assignedSplits());
            summary.put("pendingSplits", source.pendingSplits().size());
            summary.put("lag", source.lag());
            sources.put(name, summary);
        });
        return sources;
    }
}
