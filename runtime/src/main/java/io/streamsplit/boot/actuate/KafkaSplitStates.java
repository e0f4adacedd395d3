package io.streamsplit.boot.actuate;

import io.streamsplit.boot.flink.embedded.RawMetric;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.core.execution.JobClient;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;

/**
 * Reads the live split state of the application's job and shapes it per source. Each source is
 * described as it was built (a {@link StreamSplitKafkaSource} bean the application defined shows its
 * own subscription, not YAML's), with Flink's metrics; never client properties, so no credentials can
 * leak through it.
 */
public class KafkaSplitStates {

    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(5);

    private final Supplier<Map<String, StreamSplitKafkaSource<?>>> sources;
    private final StreamSplitJob job;
    private final SplitMetricsReader reader;
    private final String mode;

    public KafkaSplitStates(
            Supplier<Map<String, StreamSplitKafkaSource<?>>> sources,
            StreamSplitJob job,
            SplitMetricsReader reader,
            String mode) {
        this.sources = sources;
        this.job = job;
        this.reader = reader;
        this.mode = mode;
    }

    /** The state of every source, or a message saying why there is none (job not running). */
    public JobSplits read() {
        String readAt = Instant.now().toString();
        CompletableFuture<JobClient> submission = job.submission();
        if (!submission.isDone()) {
            return new JobSplits(
                    job.jobName(), null, "NOT_SUBMITTED", mode, readAt, "the job is being submitted", Map.of());
        }
        if (submission.isCompletedExceptionally()) {
            return new JobSplits(
                    job.jobName(),
                    null,
                    "NOT_SUBMITTED",
                    mode,
                    readAt,
                    "no job: " + submission.handle((c, e) -> e.getMessage()).join(),
                    Map.of());
        }
        JobClient client = submission.join();
        String jobId = client.getJobID().toString();
        JobStatus status;
        try {
            status = client.getJobStatus().get(STATUS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            return new JobSplits(
                    job.jobName(), jobId, "UNKNOWN", mode, readAt, "could not read the job status: " + e, Map.of());
        }
        if (status != JobStatus.RUNNING) {
            return new JobSplits(
                    job.jobName(),
                    jobId,
                    status.name(),
                    mode,
                    readAt,
                    "the job is " + status + "; split state is read from a running job",
                    Map.of());
        }
        List<RawMetric> metrics;
        try {
            metrics = reader.read(jobId);
        } catch (Exception e) {
            return new JobSplits(
                    job.jobName(), jobId, status.name(), mode, readAt, "could not read metrics: " + e, Map.of());
        }
        Map<String, SourceState> sources = new LinkedHashMap<>();
        this.sources
                .get()
                .forEach(
                        (name, source) -> sources.put(name, source(job.sources().operator(name), source, metrics)));
        return new JobSplits(job.jobName(), jobId, status.name(), mode, readAt, null, sources);
    }

    /** The state of source {@code built}, from the metrics of its operator, named {@code name} in the job. */
    private static SourceState source(String name, StreamSplitKafkaSource<?> built, List<RawMetric> all) {
        Map<String, String> topicNames = new HashMap<>();
        built.topics().forEach(t -> topicNames.put(RawMetric.filter(t), t));
        Map<String, Map<String, RawMetric>> byPartition = new LinkedHashMap<>();
        Map<Integer, Long> watermarks = new HashMap<>();
        Map<String, Long> enumerator = new HashMap<>();
        String pending = null;
        long recordsIn = 0;
        long skipped = 0;
        long deadLettered = 0;
        Map<Integer, Boolean> paused = new HashMap<>();
        Double rate = null;
        for (RawMetric m : all) {
            if (!m.isOf(name)) {
                continue;
            }
            if (m.subtask() < 0) {
                if (m.name().equals(KafkaSourceMetricNames.PENDING_PARTITIONS)) {
                    pending = String.valueOf(m.value());
                } else {
                    enumerator.put(m.name(), m.asLong());
                }
            } else if (m.topic() != null) {
                byPartition
                        .computeIfAbsent(m.subtask() + "/" + m.topic() + "/" + m.partition(), k -> new HashMap<>())
                        .put(m.name(), m);
            } else {
                switch (m.name()) {
                    case KafkaSourceMetricNames.RECORDS_IN -> recordsIn += Math.max(0, m.asLong());
                    case KafkaSourceMetricNames.RECORDS_SKIPPED -> skipped += Math.max(0, m.asLong());
                    case KafkaSourceMetricNames.RECORDS_DEAD_LETTERED -> deadLettered += Math.max(0, m.asLong());
                    case KafkaSourceMetricNames.OUTPUT_WATERMARK -> watermarks.put(m.subtask(), m.asLong());
                    case KafkaSourceMetricNames.SOURCE_PAUSED -> paused.put(m.subtask(), m.asLong() == 1);
                    case KafkaSourceMetricNames.MAX_RECORDS_PER_SECOND ->
                        rate = (rate == null ? 0 : rate) + Math.max(0, m.asDouble());
                    default -> {}
                }
            }
        }
        List<SplitState> splits = new ArrayList<>();
        for (Map<String, RawMetric> partition : byPartition.values()) {
            RawMetric any = partition.values().iterator().next();
            Long assigned = value(partition, KafkaSourceMetricNames.ASSIGNED);
            if (assigned == null || assigned != 1) {
                continue; // the split moved away from this reader (or was finished/removed)
            }
            Long watermark = watermarks.get(any.subtask());
            splits.add(new SplitState(
                    topicNames.getOrDefault(any.topic(), String.valueOf(any.topic())),
                    any.partition(),
                    any.subtask(),
                    value(partition, KafkaSourceMetricNames.STARTING_OFFSET),
                    value(partition, KafkaSourceMetricNames.CURRENT_OFFSET),
                    value(partition, KafkaSourceMetricNames.COMMITTED_OFFSET),
                    value(partition, KafkaSourceMetricNames.LOG_END_OFFSET),
                    value(partition, KafkaSourceMetricNames.LAG),
                    value(partition, KafkaSourceMetricNames.STOPPING_OFFSET),
                    watermark == null || watermark == Long.MIN_VALUE ? null : watermark,
                    Long.valueOf(1).equals(value(partition, KafkaSourceMetricNames.PAUSED)),
                    Long.valueOf(1).equals(value(partition, KafkaSourceMetricNames.GONE))));
        }
        splits.sort(Comparator.comparing(SplitState::topic).thenComparingInt(SplitState::partition));
        long lag = splits.stream().mapToLong(s -> s.lag() == null ? 0 : s.lag()).sum();
        Long lastDiscovery = enumerator.get(KafkaSourceMetricNames.LAST_DISCOVERY_TIME);
        Duration discovery = built.discoveryInterval();
        String state = paused.isEmpty() || !paused.containsValue(true)
                ? "RUNNING"
                : paused.containsValue(false) ? "CHANGING" : "PAUSED";
        return new SourceState(
                state,
                rate == null ? null : Math.round(rate * 1000) / 1000.0,
                built.topics(),
                built.topicPattern(),
                built.getBoundedness() == Boundedness.BOUNDED,
                discovery.isZero() ? null : readable(discovery),
                lastDiscovery == null || lastDiscovery < 0
                        ? null
                        : Instant.ofEpochMilli(lastDiscovery).toString(),
                enumerator.get(KafkaSourceMetricNames.ASSIGNED_SPLITS),
                pending == null || pending.isBlank() ? List.of() : Arrays.asList(pending.split(",")),
                lag,
                recordsIn,
                skipped,
                deadLettered,
                splits);
    }

    /** {@code 30s}, {@code 5m}, {@code 1500ms}: the largest unit that states the duration exactly. */
    static String readable(Duration duration) {
        ChronoUnit unit = duration.toMillis() % 60_000 == 0
                ? ChronoUnit.MINUTES
                : duration.toMillis() % 1000 == 0 ? ChronoUnit.SECONDS : ChronoUnit.MILLIS;
        return DurationStyle.SIMPLE.print(duration, unit);
    }

    /** The metric's value, {@code null} when absent or -1 (not known yet). */
    private static @Nullable Long value(Map<String, RawMetric> partition, String name) {
        RawMetric metric = partition.get(name);
        if (metric == null) {
            return null;
        }
        long value = metric.asLong();
        return value < 0 ? null : value;
    }
}
