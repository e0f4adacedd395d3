package io.streamsplit.boot.autoconfigure.actuate;

import io.streamsplit.boot.autoconfigure.StreamSplitProperties;
import io.streamsplit.boot.autoconfigure.job.StreamSplitJob;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.core.execution.JobClient;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/streamsplit}: the job by the names of {@code application.yml} — its state, last
 * checkpoint, restarts, each source (splits, lag, rate limit) and sink (topic, guarantee) — and, with a POST of
 * {@code {"operation":"stop"}}, {@code {"operation":"start"}} or
 * {@code {"operation":"rescale","parallelism":4}}, stops the job with a savepoint and starts it again
 * from that savepoint (at a new parallelism). Like every endpoint it is exposed over the web only when
 * included ({@code management.endpoints.web.exposure.include=streamsplit}); secure the POST as any
 * write operation.
 */
@Endpoint(id = "streamsplit")
public class StreamSplitEndpoint {

    private static final Duration SUBMIT_WAIT = Duration.ofSeconds(60);

    private final StreamSplitJob job;
    private final KafkaSplitStates splits;
    private final JobProgress progress;
    private final StreamSplitProperties properties;
    private final @Nullable String savepointDirectory;
    private final Supplier<Map<String, StreamSplitKafkaSource<?>>> built;

    StreamSplitEndpoint(
            Supplier<Map<String, StreamSplitKafkaSource<?>>> built,
            StreamSplitJob job,
            KafkaSplitStates splits,
            JobProgress progress,
            StreamSplitProperties properties,
            @Nullable String savepointDirectory) {
        this.built = built;
        this.job = job;
        this.splits = splits;
        this.progress = progress;
        this.properties = properties;
        this.savepointDirectory = savepointDirectory;
    }

    @ReadOperation
    public Map<String, Object> job() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("job", job.jobName());
        String savepoint = job.operatorSavepoint();
        JobSplits live = splits.read();
        state.put("jobId", live.jobId());
        state.put("state", savepoint != null ? "STOPPED" : live.status());
        if (savepoint != null) {
            state.put("savepoint", savepoint);
        }
        state.put("parallelism", job.parallelism());
        if (live.jobId() != null && savepoint == null) {
            try {
                JobCheckpoints checkpoints = progress.read(live.jobId());
                state.put("restarts", checkpoints.restarts());
                state.put("lastCheckpoint", checkpoints.details(Instant.now()));
            } catch (Exception e) {
                state.put("error", "could not read the job's checkpoints: " + e.getMessage());
            }
        }
        if (live.message() != null && savepoint == null) {
            state.put("message", live.message());
        }
        Map<String, Object> sources = new LinkedHashMap<>();
        Map<String, StreamSplitKafkaSource<?>> built = this.built.get();
        live.sources().forEach((name, source) -> {
            double limit = built.containsKey(name) ? built.get(name).maxRecordsPerSecond() : 0;
            sources.put(
                    name,
                    Map.of(
                            "topics",
                            source.topics(),
                            "assignedSplits",
                            source.assignedSplits() == null ? 0 : source.assignedSplits(),
                            "lag",
                            source.lag(),
                            "maxRecordsPerSecond",
                            limit > 0 ? limit : "unthrottled"));
        });
        state.put("sources", sources);
        Map<String, Object> sinks = new LinkedHashMap<>();
        properties.getKafka().getSinks().forEach((name, sink) -> {
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("topic", sink.getTopic() != null ? sink.getTopic() : "(topic-selector)");
            described.put("deliveryGuarantee", sink.getDeliveryGuarantee().name());
            sinks.put(name, described);
        });
        state.put("sinks", sinks);
        return state;
    }

    /**
     * {@code stop}: stop with a savepoint, returning its path; {@code start}: start again from it;
     * {@code rescale} (with {@code parallelism}): both, the new run at that parallelism.
     */
    @WriteOperation
    public Map<String, Object> operate(String operation, @Nullable Integer parallelism) {
        long started = System.nanoTime();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("operation", operation);
        try {
            switch (operation) {
                case "stop" -> result.put("savepoint", job.stopWithSavepoint(savepointDirectory));
                case "start" -> result.put("jobId", submitted(job.startFromSavepoint(null)));
                case "rescale" -> {
                    if (parallelism == null) {
                        throw new InvalidEndpointRequestException(
                                "rescale needs a parallelism, e.g. {\"operation\":\"rescale\",\"parallelism\":4}",
                                "missing parallelism");
                    }
                    result.put("savepoint", job.rescale(parallelism, savepointDirectory));
                    result.put("jobId", submitted(job.submission()));
                    result.put("parallelism", parallelism);
                }
                default ->
                    throw new InvalidEndpointRequestException(
                            "Unknown operation '" + operation + "': use stop, start or rescale", "unknown operation");
            }
        } catch (IllegalStateException e) {
            throw new InvalidEndpointRequestException("Cannot " + operation + ": " + e.getMessage(), e.getMessage());
        } catch (InvalidEndpointRequestException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Could not " + operation + " Flink job '" + job.jobName() + "': "
                            + e.getMessage()
                            + (operation.equals("stop") && savepointDirectory == null
                                    ? " (no savepoint directory: set streamsplit.flink.shutdown.savepoint-directory)"
                                    : ""),
                    e);
        }
        result.put("tookMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return result;
    }

    private static String submitted(CompletableFuture<JobClient> submission) throws Exception {
        return submission
                .get(SUBMIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                .getJobID()
                .toString();
    }
}
