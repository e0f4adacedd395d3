package io.streamsplit.boot.flink.embedded;

import io.streamsplit.connector.kafka.sink.ObservedSerializationSchema;
import io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames;
import io.streamsplit.pipeline.step.StepGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.jspecify.annotations.Nullable;

/**
 * The metrics of the Kafka source operators of one embedded MiniCluster, read in-process: Flink
 * hands them to {@link InProcessMetricReporter}, which Flink instantiates from its configuration
 * and finds its registry by id. Values are read when asked, so they are live.
 *
 * <p>The id map is the only static state: each application context registers its own id, so two
 * contexts in one JVM never see each other's metrics.
 */
public final class InProcessMetrics {

    /** Flink configuration key prefix of the reporter. */
    public static final String REPORTER_PREFIX = "metrics.reporter.streamsplit.";

    static final String REGISTRY_KEY = "registry";
    /** Flink's job-level restart count, as its REST API reports it. */
    static final String RESTARTS = "numRestarts";

    private static final Map<String, InProcessMetrics> REGISTRIES = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();
    private final Map<Metric, RegisteredMetric> metrics = new ConcurrentHashMap<>();
    private final Map<String, Gauge<?>> restarts = new ConcurrentHashMap<>();
    private final Map<Metric, RegisteredMetric> sinkWriters = new ConcurrentHashMap<>();
    private final Map<Metric, RegisteredMetric> steps = new ConcurrentHashMap<>();

    private record RegisteredMetric(
            @Nullable String jobId,
            String operator,
            int subtask,
            @Nullable String topic,
            int partition,
            String name,
            Metric metric) {}

    private InProcessMetrics() {}

    /** A new registry; put {@link #flinkConfiguration()} into the MiniCluster's configuration. */
    public static InProcessMetrics create() {
        InProcessMetrics registry = new InProcessMetrics();
        REGISTRIES.put(registry.id, registry);
        return registry;
    }

    static @Nullable InProcessMetrics lookup(@Nullable String id) {
        return id == null ? null : REGISTRIES.get(id);
    }

    /** The Flink configuration entries that install the reporter for this registry. */
    public Map<String, String> flinkConfiguration() {
        return Map.of(
                REPORTER_PREFIX + "factory.class",
                InProcessMetricReporterFactory.class.getName(),
                REPORTER_PREFIX + REGISTRY_KEY,
                id);
    }

    /** Forgets the registry (the cluster is closed). */
    public void close() {
        REGISTRIES.remove(id);
        metrics.clear();
        restarts.clear();
        sinkWriters.clear();
        steps.clear();
    }

    void add(Metric metric, String name, MetricGroup group) {
        Map<String, String> variables = group.getAllVariables();
        String operator = variables.get("<operator_name>");
        if (name.equals(RESTARTS)
                && operator == null
                && variables.get("<task_name>") == null
                && metric instanceof Gauge<?> gauge) {
            restarts.put(variables.get("<job_id>"), gauge);
            return;
        }
        if (operator != null && name.equals(ObservedSerializationSchema.METRIC) && metric instanceof Histogram) {
            String subtask = variables.get("<subtask_index>");
            sinkWriters.put(
                    metric,
                    new RegisteredMetric(
                            variables.get("<job_id>"),
                            RawMetric.filter(operator),
                            subtask == null ? -1 : Integer.parseInt(subtask),
                            null,
                            -1,
                            name,
                            metric));
            return;
        }
        if (operator != null && group.getMetricIdentifier(name).endsWith("." + StepGuard.METRIC_GROUP + "." + name)) {
            String subtask = variables.get("<subtask_index>");
            steps.put(
                    metric,
                    new RegisteredMetric(
                            variables.get("<job_id>"),
                            operator,
                            subtask == null ? -1 : Integer.parseInt(subtask),
                            null,
                            -1,
                            name,
                            metric));
            return;
        }
        if (operator == null || !operator.startsWith("Source: ")) {
            return;
        }
        String identifier = group.getMetricIdentifier(name);
        boolean reader = identifier.contains("." + KafkaSourceMetricNames.READER_GROUP + ".");
        if (!reader && !KafkaSourceMetricNames.OPERATOR_METRICS.contains(name)) {
            return;
        }
        String subtask = variables.get("<subtask_index>");
        String partition = variables.get("<partition>");
        String topic = variables.get("<topic>");
        metrics.put(
                metric,
                new RegisteredMetric(
                        variables.get("<job_id>"),
                        RawMetric.filter(operator),
                        subtask == null ? -1 : Integer.parseInt(subtask),
                        topic == null ? null : RawMetric.filter(topic),
                        partition == null ? -1 : Integer.parseInt(partition),
                        name,
                        metric));
    }

    void remove(Metric metric) {
        metrics.remove(metric);
        steps.remove(metric);
        sinkWriters.remove(metric);
        restarts.values().remove(metric);
    }

    /** Flink's {@code numRestarts} of job {@code jobId}, read now; {@code null} before the job registered it. */
    public @Nullable Long restarts(String jobId) {
        Gauge<?> gauge = restarts.get(jobId);
        return gauge != null && gauge.getValue() instanceof Number number ? number.longValue() : null;
    }

    /**
     * The freshness histograms of job {@code jobId}'s sink writers ({@code ObservedSerializationSchema}, the
     * last 1,024 records of each), read now: per writer {@code median}, {@code p99} and {@code max} in ms;
     * none for a writer that has written nothing.
     */
    public List<RawMetric> sinkFreshness(String jobId) {
        List<RawMetric> values = new ArrayList<>();
        for (RegisteredMetric m : sinkWriters.values()) {
            if (jobId.equals(m.jobId()) && m.metric() instanceof Histogram histogram && histogram.getCount() > 0) {
                HistogramStatistics statistics = histogram.getStatistics();
                values.add(new RawMetric(m.operator(), m.subtask(), null, -1, "median", statistics.getQuantile(0.5)));
                values.add(new RawMetric(m.operator(), m.subtask(), null, -1, "p99", statistics.getQuantile(0.99)));
                values.add(new RawMetric(m.operator(), m.subtask(), null, -1, "max", statistics.getMax()));
            }
        }
        return values;
    }

    /**
     * The current values of job {@code jobId}'s step metrics ({@code StreamSplitStep} group): the operator is the
     * step's name as given (not filtered), the value a count or the text of the last failures.
     */
    public List<RawMetric> steps(String jobId) {
        return valuesOf(steps, jobId);
    }

    /**
     * A number that grows whenever job {@code jobId}'s sources read a record: the sum of their partitions'
     * read positions ({@code currentOffset}), read now without copying the metrics.
     */
    public long progress(String jobId) {
        long sum = 0;
        for (RegisteredMetric m : metrics.values()) {
            if (m.partition() >= 0
                    && KafkaSourceMetricNames.CURRENT_OFFSET.equals(m.name())
                    && jobId.equals(m.jobId())
                    && m.metric() instanceof Gauge<?> gauge
                    && gauge.getValue() instanceof Number position) {
                sum += position.longValue();
            }
        }
        return sum;
    }

    /** The current values of job {@code jobId}'s source metrics. */
    public List<RawMetric> read(String jobId) {
        return valuesOf(metrics, jobId);
    }

    /** The values of job {@code jobId}'s gauges and counters among {@code registered}, read now. */
    private static List<RawMetric> valuesOf(Map<Metric, RegisteredMetric> registered, String jobId) {
        List<RawMetric> values = new ArrayList<>();
        for (RegisteredMetric m : registered.values()) {
            if (jobId.equals(m.jobId())) {
                Object value = m.metric() instanceof Gauge<?> gauge
                        ? gauge.getValue()
                        : m.metric() instanceof Counter counter ? (Object) counter.getCount() : null;
                if (value != null) {
                    values.add(new RawMetric(m.operator(), m.subtask(), m.topic(), m.partition(), m.name(), value));
                }
            }
        }
        return values;
    }
}
