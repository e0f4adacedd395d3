package io.streamsplit.boot.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.streamsplit.boot.autoconfigure.KafkaSourceProperties;
import io.streamsplit.boot.autoconfigure.StreamSplitJob;
import io.streamsplit.boot.autoconfigure.StreamSplitProperties;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSourceEnumerator;
import io.streamsplit.connector.kafka.source.reader.KafkaSourceReaderMetrics;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.springframework.boot.convert.DurationStyle;

/**
 * Reads the live split state of the application's job and shapes it per configured source. Shows
 * only what the source configuration and Flink's metrics say: never client properties, so no
 * credentials can leak through it.
 */
public class KafkaSplitStates {

    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(5);

    private final StreamSplitProperties properties;
    private final StreamSplitJob job;
    private final SplitMetricsReader reader;
    private final String mode;

    KafkaSplitStates(StreamSplitProperties properties, StreamSplitJob job, SplitMetricsReader reader, String mode) {
        this.properties = properties;
        this.job = job;
        this.reader = reader;
        this.mode = mode;
    }

    /** The state of every source, or a message saying why there is none (job not running). */
    public JobSplits read() {
        String readAt = Instant.now().toString();
        CompletableFuture<JobClient> submission = job.submission();
        if (!submission.isDone()) {
            return new JobSplits(job.jobName(), null, "NOT_SUBMITTED", mode, readAt, "the job is being submitted", Map.of());
        }
        if (submission.isCompletedExceptionally()) {
            return new JobSplits(job.jobName(), null, "NOT_SUBMITTED", mode, readAt,
                    "no job: " + submission.handle((c, e) -> e.getMessage()).join(), Map.of());
        }
        JobClient client = submission.join();
        String jobId = client.getJobID().toString();
        JobStatus status;
        try {
            status = client.getJobStatus().get(STATUS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            return new JobSplits(job.jobName(), jobId, "UNKNOWN", mode, readAt, "could not read the job status: " + e, Map.of());
        }
        if (status != JobStatus.RUNNING) {
            return new JobSplits(job.jobName(), jobId, status.name(), mode, readAt,
                    "the job is " + status + "; split state is read from a running job", Map.of());
        }
        List<RawMetric> metrics;
        try {
            metrics = reader.read(jobId);
        } catch (Exception e) {
            return new JobSplits(job.jobName(), jobId, status.name(), mode, readAt, "could not read metrics: " + e, Map.of());
        }
        Map<String, SourceState> sources = new LinkedHashMap<>();
        properties.getKafka().getSources().forEach((name, source) -> sources.put(name, source(name, source, metrics)));
        return new JobSplits(job.jobName(), jobId, status.name(), mode, readAt, null, sources);
    }

    private static SourceState source(String name, KafkaSourceProperties config, List<RawMetric> all) {
        Map<String, String> topicNames = new HashMap<>();
        config.getTopics().forEach(t -> topicNames.put(RawMetric.filter(t), t));
        Map<String, Map<String, RawMetric>> byPartition = new LinkedHashMap<>();
        Map<Integer, Long> watermarks = new HashMap<>();
        Map<String, Long> enumerator = new HashMap<>();
        String pending = null;
        long recordsIn = 0;
        long skipped = 0;
        long deadLettered = 0;
        for (RawMetric m : all) {
            if (!m.isOf(name)) {
                continue;
            }
            if (m.subtask() < 0) {
                if (m.name().equals(KafkaSourceEnumerator.METRIC_PENDING_PARTITIONS)) {
                    pending = String.valueOf(m.value());
                } else {
                    enumerator.put(m.name(), m.asLong());
                }
            } else if (m.topic() != null) {
                byPartition.computeIfAbsent(m.subtask() + "/" + m.topic() + "/" + m.partition(), k -> new HashMap<>())
                        .put(m.name(), m);
            } else {
                switch (m.name()) {
                    case SourceMetricNames.RECORDS_IN -> recordsIn += Math.max(0, m.asLong());
                    case KafkaSourceReaderMetrics.RECORDS_SKIPPED -> skipped += Math.max(0, m.asLong());
                    case KafkaSourceReaderMetrics.RECORDS_DEAD_LETTERED -> deadLettered += Math.max(0, m.asLong());
                    case SourceMetricNames.WATERMARK -> watermarks.put(m.subtask(), m.asLong());
                    default -> {
                    }
                }
            }
        }
        List<SplitState> splits = new ArrayList<>();
        for (Map<String, RawMetric> partition : byPartition.values()) {
            RawMetric any = partition.values().iterator().next();
            if (value(partition, KafkaSourceReaderMetrics.ASSIGNED) == null
                    || value(partition, KafkaSourceReaderMetrics.ASSIGNED) != 1) {
                continue; // the split moved away from this reader (or was finished/removed)
            }
            Long watermark = watermarks.get(any.subtask());
            splits.add(new SplitState(topicNames.getOrDefault(any.topic(), any.topic()), any.partition(), any.subtask(),
                    value(partition, KafkaSourceReaderMetrics.STARTING_OFFSET),
                    value(partition, KafkaSourceReaderMetrics.CURRENT_OFFSET),
                    value(partition, KafkaSourceReaderMetrics.COMMITTED_OFFSET),
                    value(partition, KafkaSourceReaderMetrics.LOG_END_OFFSET),
                    value(partition, KafkaSourceReaderMetrics.LAG),
                    value(partition, KafkaSourceReaderMetrics.STOPPING_OFFSET),
                    watermark == null || watermark == Long.MIN_VALUE ? null : watermark,
                    Long.valueOf(1).equals(value(partition, KafkaSourceReaderMetrics.PAUSED))));
        }
        splits.sort(Comparator.comparing(SplitState::topic).thenComparingInt(SplitState::partition));
        long lag = splits.stream().mapToLong(s -> s.lag() == null ? 0 : s.lag()).sum();
        Long lastDiscovery = enumerator.get(KafkaSourceEnumerator.METRIC_LAST_DISCOVERY_TIME);
        return new SourceState(List.copyOf(config.getTopics()), config.getPattern(),
                config.getStoppingOffsets() != KafkaSourceProperties.StoppingOffsetsMode.NONE,
                config.getDiscoveryInterval() == null ? null : DurationStyle.SIMPLE.print(config.getDiscoveryInterval()),
                lastDiscovery == null || lastDiscovery < 0 ? null : Instant.ofEpochMilli(lastDiscovery).toString(),
                enumerator.get(KafkaSourceEnumerator.METRIC_ASSIGNED_SPLITS),
                pending == null || pending.isBlank() ? List.of() : Arrays.asList(pending.split(",")),
                lag, recordsIn, skipped, deadLettered, splits);
    }

    /** The metric's value, {@code null} when absent or -1 (not known yet). */
    private static Long value(Map<String, RawMetric> partition, String name) {
        RawMetric metric = partition.get(name);
        if (metric == null) {
            return null;
        }
        long value = metric.asLong();
        return value < 0 ? null : value;
    }
}
