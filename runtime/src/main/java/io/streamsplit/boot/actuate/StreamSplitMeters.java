package io.streamsplit.boot.actuate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.streamsplit.boot.flink.rest.RestPoller;
import io.streamsplit.boot.job.StreamSplitJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * Micrometer meters of the job, refreshed every few seconds from the same data as the
 * {@code kafkasplits} endpoint: {@code streamsplit.kafka.source.lag} and
 * {@code streamsplit.kafka.source.offset} (tags source, topic, partition),
 * {@code streamsplit.kafka.source.records.in}, {@code .records.skipped},
 * {@code .records.dead.lettered} (tag source), {@code streamsplit.flink.checkpoint.age},
 * {@code .checkpoint.duration} (seconds), {@code .checkpoint.size} (bytes),
 * {@code streamsplit.flink.job.restarts} and {@code streamsplit.flink.job.failures} (tag cause: the root
 * exception's class).
 */
public class StreamSplitMeters implements MeterBinder, SmartLifecycle {

    static final Duration REFRESH = Duration.ofSeconds(5);

    private final KafkaSplitStates splits;
    private final StreamSplitJob job;
    private final JobProgress progress;
    private final List<String> sourceNames;
    private volatile @Nullable JobSplits latest;
    private volatile @Nullable JobCheckpoints checkpoints;

    @SuppressWarnings("NullAway.Init") // registered by bindTo, before the first refresh
    private MultiGauge lag;

    @SuppressWarnings("NullAway.Init") // registered by bindTo, before the first refresh
    private MultiGauge offset;

    private @Nullable RestPoller poller;
    private @Nullable MeterRegistry registry;
    private final java.util.Set<String> causes = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public StreamSplitMeters(
            KafkaSplitStates splits, StreamSplitJob job, JobProgress progress, List<String> sourceNames) {
        this.splits = splits;
        this.job = job;
        this.progress = progress;
        this.sourceNames = sourceNames;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        lag = MultiGauge.builder("streamsplit.kafka.source.lag")
                .baseUnit("records")
                .description("Records between a partition's end and the next offset the source reads")
                .register(registry);
        offset = MultiGauge.builder("streamsplit.kafka.source.offset")
                .description("Next offset the source reads from a partition")
                .register(registry);
        for (String source : sourceNames) {
            counter(registry, "streamsplit.kafka.source.records.in", "Records read", source, SourceState::recordsIn);
            counter(
                    registry,
                    "streamsplit.kafka.source.records.skipped",
                    "Bad records skipped",
                    source,
                    SourceState::recordsSkipped);
            counter(
                    registry,
                    "streamsplit.kafka.source.records.dead.lettered",
                    "Bad records sent to the dead-letter topic",
                    source,
                    SourceState::recordsDeadLettered);
            Gauge.builder(
                            "streamsplit.kafka.source.paused",
                            this,
                            m -> sourceValue(m, source, s -> "PAUSED".equals(s.state()) ? 1 : 0))
                    .tag("source", source)
                    .description("1 while an operator has paused the source (control topic), else 0")
                    .register(registry);
            Gauge.builder(
                            "streamsplit.kafka.source.max.records.per.second",
                            this,
                            m -> sourceValue(
                                    m, source, s -> s.maxRecordsPerSecond() == null ? 0 : s.maxRecordsPerSecond()))
                    .tag("source", source)
                    .description("The source's rate limit in force over all readers; 0: unthrottled")
                    .register(registry);
        }
        Gauge.builder("streamsplit.flink.checkpoint.age", this, m -> m.checkpointAgeSeconds())
                .baseUnit("seconds")
                .description("Time since the last completed checkpoint")
                .register(registry);
        Gauge.builder(
                        "streamsplit.flink.checkpoint.duration",
                        this,
                        m -> m.lastCheckpoint(c -> {
                            Duration duration = c.lastCheckpointDuration();
                            return duration == null ? Double.NaN : duration.toMillis() / 1000.0;
                        }))
                .baseUnit("seconds")
                .description("End-to-end duration of the last completed checkpoint")
                .register(registry);
        Gauge.builder(
                        "streamsplit.flink.checkpoint.size",
                        this,
                        m -> m.lastCheckpoint(c -> c.lastCheckpointId() < 0 ? Double.NaN : c.lastCheckpointSize()))
                .baseUnit("bytes")
                .description("State size of the last completed checkpoint")
                .register(registry);
        Gauge.builder("streamsplit.flink.job.restarts", this, m -> m.checkpoints == null ? 0 : m.checkpoints.restarts())
                .description("Restarts of the Flink job")
                .register(registry);
    }

    private void counter(
            MeterRegistry registry, String name, String description, String source, ToLongFunction<SourceState> value) {
        FunctionCounter.builder(name, this, m -> {
                    SourceState state = m.state(source);
                    return state == null ? 0 : value.applyAsLong(state);
                })
                .tag("source", source)
                .description(description)
                .register(registry);
    }

    private static double sourceValue(
            StreamSplitMeters meters, String source, java.util.function.ToDoubleFunction<SourceState> value) {
        SourceState state = meters.state(source);
        return state == null ? Double.NaN : value.applyAsDouble(state);
    }

    /** The source's state as of the last refresh, or {@code null} before one. */
    private @Nullable SourceState state(String source) {
        JobSplits current = latest;
        return current == null ? null : current.sources().get(source);
    }

    private double lastCheckpoint(java.util.function.ToDoubleFunction<JobCheckpoints> value) {
        JobCheckpoints current = checkpoints;
        return current == null ? Double.NaN : value.applyAsDouble(current);
    }

    private double checkpointAgeSeconds() {
        JobCheckpoints current = checkpoints;
        Duration age = current == null ? null : current.age(Instant.now());
        return age == null ? Double.NaN : age.toMillis() / 1000.0;
    }

    /** A counter per root exception class of the job's failures, registered when the first one of a class is seen. */
    private void registerFailureCauses() {
        MeterRegistry meters = registry;
        if (meters == null) {
            return;
        }
        for (String cause : job.failureLog().countsByCause().keySet()) {
            if (causes.add(cause)) {
                FunctionCounter.builder(
                                "streamsplit.flink.job.failures",
                                job,
                                j -> j.failureLog().countsByCause().getOrDefault(cause, 0L))
                        .tag("cause", cause)
                        .description("Failures of the Flink job since the application started, by root exception class")
                        .register(meters);
            }
        }
    }

    /** Reads the job's state once; also called on the refresh schedule. */
    void refresh() {
        registerFailureCauses();
        JobSplits read = splits.read();
        latest = read;
        List<MultiGauge.Row<?>> lags = new ArrayList<>();
        List<MultiGauge.Row<?>> offsets = new ArrayList<>();
        read.sources()
                .forEach((source, state) -> state.splits().forEach(split -> {
                    Tags tags = Tags.of(
                            "source", source, "topic", split.topic(), "partition", String.valueOf(split.partition()));
                    if (split.lag() != null) {
                        lags.add(MultiGauge.Row.of(tags, split.lag()));
                    }
                    if (split.currentOffset() != null) {
                        offsets.add(MultiGauge.Row.of(tags, split.currentOffset()));
                    }
                }));
        if (lag != null) {
            lag.register(lags, true);
            offset.register(offsets, true);
        }
        if (read.jobId() != null) {
            try {
                checkpoints = progress.read(read.jobId());
            } catch (Exception e) {
                checkpoints = null;
            }
        }
    }

    @Override
    public synchronized void start() {
        poller = new RestPoller("streamsplit-meters-" + job.jobName(), REFRESH, () -> {
            try {
                refresh();
            } catch (RuntimeException e) {
                // the next refresh tries again; meters keep their last values
            }
        });
    }

    @Override
    public synchronized void stop() {
        if (poller != null) {
            poller.stop();
            poller = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return poller != null;
    }
}
