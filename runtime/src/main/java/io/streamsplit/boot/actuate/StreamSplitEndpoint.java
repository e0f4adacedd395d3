package io.streamsplit.boot.actuate;

import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.cluster.ClusterRun;
import io.streamsplit.boot.job.failure.JobFailureLog;
import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.connector.kafka.source.control.SourceControl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.apache.flink.core.execution.JobClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/streamsplit}: the job by the names of {@code application.yml} — its state, last
 * checkpoint, restarts, each source (splits, lag, rate limit) and sink (topic, guarantee) — and, with a POST of
 * {@code {"operation":"stop"}}, {@code {"operation":"start"}} or
 * {@code {"operation":"rescale","parallelism":4}}, stops the job with a savepoint and starts it again
 * from that savepoint (at a new parallelism); {@code {"operation":"pause","source":"orders"}},
 * {@code resume} and {@code {"operation":"throttle","source":"orders","maxRecordsPerSecond":500}}
 * command a running source through {@code streamsplit.kafka.control-topic}. Like every endpoint it is exposed over the web only when
 * included ({@code management.endpoints.web.exposure.include=streamsplit}); secure the POST as any
 * write operation.
 */
@Endpoint(id = "streamsplit")
public class StreamSplitEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSplitEndpoint.class);
    private static final Duration SUBMIT_WAIT = Duration.ofSeconds(60);
    private static final Duration APPLY_WAIT = Duration.ofSeconds(10);

    private final StreamSplitJob job;
    private final KafkaSplitStates splits;
    private final JobProgress progress;
    private final KafkaSinks configuredSinks;
    private final Supplier<Map<String, StreamSplitKafkaSource<?>>> built;
    private final SourceControls controls;
    private final Supplier<Map<String, Object>> sinkFreshness;
    private final Supplier<Map<String, Object>> steps;

    /** @param steps each pipeline step's rules, outcome counts and last failures ({@link StepOutcomes}) */
    public StreamSplitEndpoint(
            Supplier<Map<String, StreamSplitKafkaSource<?>>> built,
            StreamSplitJob job,
            KafkaSplitStates splits,
            JobProgress progress,
            KafkaSinks configuredSinks,
            Supplier<Map<String, Object>> sinkFreshness,
            Supplier<Map<String, Object>> steps) {
        this.built = built;
        this.steps = steps;
        this.sinkFreshness = sinkFreshness;
        this.controls = new SourceControls(built);
        this.job = job;
        this.splits = splits;
        this.progress = progress;
        this.configuredSinks = configuredSinks;
    }

    @ReadOperation
    public Map<String, Object> job() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("job", job.jobName());
        String savepoint = job.commands().operatorSavepoint();
        JobSplits live = splits.read();
        state.put("jobId", live.jobId());
        ClusterRun run = job.clusterRun();
        if (run != null) {
            state.put("cluster", run.describe());
        }
        state.put("state", savepoint != null ? "STOPPED" : live.status());
        if (savepoint != null) {
            state.put("savepoint", savepoint);
        }
        state.put("parallelism", job.commands().parallelism());
        Instant lastCheckpoint = null;
        if (live.jobId() != null && savepoint == null) {
            try {
                JobCheckpoints checkpoints = progress.read(live.jobId());
                state.put("restarts", checkpoints.restarts());
                state.put("lastCheckpoint", checkpoints.details(Instant.now()));
                lastCheckpoint = checkpoints.lastCheckpointTime();
            } catch (Exception e) {
                state.put("error", "could not read the job's checkpoints: " + e.getMessage());
            }
        }
        state.put("failures", failures(lastCheckpoint));
        state.put("lineage", job.lineage().describe());
        state.put(
                "stateHistory",
                job.stateHistory().stream()
                        .map(kept -> Map.of(
                                "kind", kept.kind().word(),
                                "path", kept.path(),
                                "completedAt", kept.completedAt().toString()))
                        .toList());
        io.streamsplit.boot.job.state.StatePlan plan = job.statePlan();
        if (plan != null) {
            state.put("statePlan", plan.toMap());
        }
        if (live.message() != null && savepoint == null) {
            state.put("message", live.message());
        }
        Map<String, Object> sources = new LinkedHashMap<>();
        Map<String, StreamSplitKafkaSource<?>> built = this.built.get();
        live.sources().forEach((name, source) -> {
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("state", source.state());
            described.put("topics", source.topics());
            described.put("assignedSplits", source.assignedSplits() == null ? 0 : source.assignedSplits());
            described.put("lag", source.lag());
            Double rate = source.maxRecordsPerSecond();
            double limit = rate != null
                    ? rate
                    : built.containsKey(name) ? built.get(name).maxRecordsPerSecond() : 0;
            described.put("maxRecordsPerSecond", limit > 0 ? limit : "unthrottled");
            described.put(
                    "controllable", built.containsKey(name) && built.get(name).controlTopic() != null);
            sources.put(name, described);
        });
        state.put("sources", sources);
        Map<String, Object> sinks = new LinkedHashMap<>();
        Map<String, Object> freshnessBySink = sinkFreshness.get(); // remote: one read of Flink's REST API
        configuredSinks.configured().forEach((name, sink) -> {
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("topic", sink.topic() != null ? sink.topic() : "(topic-selector)");
            described.put("deliveryGuarantee", sink.deliveryGuarantee().name());
            Object freshness = freshnessBySink.get(name);
            if (freshness != null) {
                described.put("freshness", freshness);
            }
            sinks.put(name, described);
        });
        state.put("sinks", sinks);
        Map<String, Object> described = steps.get();
        if (!described.isEmpty()) {
            state.put("steps", described);
        }
        return state;
    }

    /**
     * The job's last failures since the application started, newest first: when, in which run, what StreamSplit
     * says of it, the root exception's class, the task, and whether the job recovered (a checkpoint completed after
     * it; for an earlier run: whether a later run took its place).
     */
    private List<Map<String, Object>> failures(@Nullable Instant lastCheckpoint) {
        List<Map<String, Object>> failures = new ArrayList<>();
        String currentRun = null;
        for (JobFailureLog.Entry entry : job.failureLog().recent()) {
            if (currentRun == null) {
                currentRun = entry.jobId();
            }
            Map<String, Object> failure = new LinkedHashMap<>();
            failure.put("time", entry.time().toString());
            failure.put("jobId", entry.jobId());
            failure.put("cause", entry.cause());
            failure.put("causeClass", entry.causeClass());
            if (entry.task() != null) {
                failure.put("task", entry.task());
            }
            boolean sameRun = entry.jobId().equals(currentRun);
            failure.put("recovered", !sameRun || (lastCheckpoint != null && lastCheckpoint.isAfter(entry.time())));
            failures.add(failure);
        }
        return failures;
    }

    /**
     * {@code stop}: stop with a savepoint, returning its path; {@code start}: start again from it;
     * {@code rescale} (with {@code parallelism}): both, the new run at that parallelism.
     */
    @WriteOperation
    public Map<String, Object> operate(
            @Nullable String operation,
            @Nullable Integer parallelism,
            @Nullable String source,
            @Nullable Double maxRecordsPerSecond) {
        try {
            return run(required(operation), parallelism, source, maxRecordsPerSecond);
        } catch (InvalidEndpointRequestException refused) {
            LOG.warn(
                    "Refused operation '{}' on Flink job '{}' from the streamsplit endpoint: {}",
                    operation,
                    job.jobName(),
                    refused.getMessage());
            throw refused;
        } catch (IllegalStateException failed) {
            LOG.error(
                    "Operation '{}' on Flink job '{}' from the streamsplit endpoint failed: {}",
                    operation,
                    job.jobName(),
                    failed.getMessage(),
                    failed);
            throw failed;
        }
    }

    private static String required(@Nullable String operation) {
        if (operation == null || operation.isBlank()) {
            throw new InvalidEndpointRequestException(
                    "No operation: POST a JSON body such as {\"operation\":\"stop\"}; operations are stop, start,"
                            + " rescale, pause, resume and throttle",
                    "missing operation");
        }
        return operation;
    }

    private Map<String, Object> run(
            String operation,
            @Nullable Integer parallelism,
            @Nullable String source,
            @Nullable Double maxRecordsPerSecond) {
        long started = System.nanoTime();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("operation", operation);
        try {
            switch (operation) {
                case "stop" -> result.put("savepoint", job.commands().stopWithSavepoint(job.savepointDirectory()));
                case "start" -> result.put("jobId", submitted(job.commands().startFromSavepoint(null)));
                case "rescale" -> {
                    if (parallelism == null) {
                        throw new InvalidEndpointRequestException(
                                "rescale needs a parallelism, e.g. {\"operation\":\"rescale\",\"parallelism\":4}",
                                "missing parallelism");
                    }
                    result.put("savepoint", job.commands().rescale(parallelism, job.savepointDirectory()));
                    result.put("jobId", submitted(job.submission()));
                    result.put("parallelism", parallelism);
                }
                case "pause", "resume", "throttle" ->
                    result.putAll(control(operation, required(operation, source), maxRecordsPerSecond));
                default ->
                    throw new InvalidEndpointRequestException(
                            "Unknown operation '" + operation
                                    + "': use stop, start, rescale, pause, resume or throttle",
                            "unknown operation");
            }
        } catch (IllegalStateException | IllegalArgumentException e) {
            // the job's state, or a rule of SourceControl (e.g. a negative rate): the request cannot be done
            throw new InvalidEndpointRequestException("Cannot " + operation + ": " + e.getMessage(), e.getMessage());
        } catch (InvalidEndpointRequestException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Could not " + operation + " Flink job '" + job.jobName() + "': "
                            + e.getMessage()
                            + (operation.equals("stop") && job.savepointDirectory() == null
                                    ? " (no savepoint directory: set streamsplit.flink.checkpointing.storage or"
                                            + " streamsplit.flink.shutdown.savepoint-directory)"
                                    : ""),
                    e);
        }
        result.put("tookMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return result;
    }

    private static String required(String operation, @Nullable String source) {
        if (source == null || source.isBlank()) {
            throw new InvalidEndpointRequestException(
                    operation + " needs a source, e.g. {\"operation\":\"" + operation + "\",\"source\":\"orders\""
                            + (operation.equals("throttle") ? ",\"maxRecordsPerSecond\":500" : "") + "}",
                    "missing source");
        }
        return source;
    }

    /**
     * Writes the source's next command to its control topic and waits (up to 10 s) until its readers
     * report it applied; {@code throttle} without a rate goes back to the configured one, 0 unthrottles.
     */
    private Map<String, Object> control(String operation, String source, @Nullable Double rate) throws Exception {
        SourceControl next = controls.change(source, current -> switch (operation) {
            case "pause" -> current.withPaused(true);
            case "resume" -> current.withPaused(false);
            default -> current.withMaxRecordsPerSecond(rate);
        });
        double configured = Objects.requireNonNull(built.get().get(source), "a source the change found")
                .maxRecordsPerSecond();
        double expectedRate = next.effectiveRate(configured);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("source", source);
        result.put("requested", describe(next.paused(), expectedRate));
        SourceState live = awaitApplied(source, next.paused(), expectedRate);
        result.put("applied", live != null);
        if (live == null) {
            result.put(
                    "note",
                    "written to the control topic; the source's readers had not reported it within "
                            + APPLY_WAIT.toSeconds() + " s (in remote mode metrics lag by"
                            + " metrics.fetcher.update-interval): GET /actuator/streamsplit shows the state");
        } else {
            result.put("state", live.state());
            result.put("lag", live.lag());
        }
        return result;
    }

    private static Map<String, Object> describe(boolean paused, double rate) {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("state", paused ? "PAUSED" : "RUNNING");
        described.put("maxRecordsPerSecond", rate > 0 ? rate : "unthrottled");
        return described;
    }

    /** The source's live state once every reader reports the command applied, or {@code null} after the wait. */
    private @Nullable SourceState awaitApplied(String source, boolean paused, double rate) {
        long deadline = System.nanoTime() + APPLY_WAIT.toNanos();
        do {
            SourceState live = splits.read().sources().get(source);
            if (live != null
                    && live.state().equals(paused ? "PAUSED" : "RUNNING")
                    && Math.abs((live.maxRecordsPerSecond() == null ? 0 : live.maxRecordsPerSecond()) - rate)
                            <= rate * 0.001) {
                return live;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        } while (System.nanoTime() < deadline);
        return null;
    }

    private static String submitted(CompletableFuture<JobClient> submission) throws Exception {
        return submission
                .get(SUBMIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                .getJobID()
                .toString();
    }
}
