package io.streamsplit.boot.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.streamsplit.boot.flink.embedded.InProcessMetrics;
import io.streamsplit.boot.flink.embedded.RawMetric;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.connector.kafka.sink.ObservedSerializationSchema;
import io.streamsplit.connector.kafka.sink.SinkObservers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;

/**
 * How old the records are that the sinks write: <em>now − the element's timestamp</em> for each record
 * — for a record-to-record pipeline, how old the input record is when its result is written. Every sink
 * writer keeps a Flink histogram of its last 1,024 records; the endpoint and health show per sink its
 * median, p99 and max (the highest over the sink's subtasks), read in-process (embedded MiniCluster) or
 * over Flink's REST API (remote).
 *
 * <p>Embedded, the writers also report each record to a Micrometer timer {@code
 * streamsplit.kafka.sink.freshness} (tag sink; its count is in health too), with percentiles or a
 * histogram only where {@code management.metrics.distribution.*} asks for them, as for any timer
 * (published percentiles were 6 % of a saturated source → map → sink app's CPU samples in a JFR
 * profile), so the figures health shows come from the histograms the writers keep anyway.
 */
public final class SinkFreshness implements MeterBinder, DisposableBean {

    private static final Pattern HISTOGRAM =
            Pattern.compile("^\\d+\\.([^.]+)\\.(?:.+\\.)?" + ObservedSerializationSchema.METRIC + "_(median|p99|max)$");

    /** Reads the writers' histograms of a job: median, p99 and max per writer (operator, subtask). */
    @FunctionalInterface
    private interface WriterHistograms {
        List<RawMetric> read(String jobId) throws Exception;
    }

    private final Map<String, String> observerIds;
    /** Each sink's writer operator as Flink's metrics name it ({@code sink_<name>__Writer}) → the sink. */
    private final Map<String, String> sinkByOperator = new LinkedHashMap<>();

    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final boolean embedded;
    private final WriterHistograms histograms;
    private final Supplier<@Nullable String> jobId;

    private SinkFreshness(
            Map<String, String> observerIds,
            boolean embedded,
            WriterHistograms histograms,
            Supplier<@Nullable String> jobId) {
        this.observerIds = Map.copyOf(observerIds);
        observerIds.keySet().forEach(sink -> sinkByOperator.put(RawMetric.filter("sink " + sink + ": Writer"), sink));
        this.embedded = embedded;
        this.histograms = histograms;
        this.jobId = jobId;
    }

    /**
     * Embedded mode: the sinks of the application whose id is {@code applicationId} ({@code
     * KafkaSinkFactory.applicationId}), their histograms read from {@code metrics}.
     */
    public static SinkFreshness embedded(
            String applicationId, List<String> sinks, InProcessMetrics metrics, Supplier<@Nullable String> jobId) {
        Map<String, String> ids = new LinkedHashMap<>();
        sinks.forEach(sink -> ids.put(sink, ObservedSerializationSchema.observerId(applicationId, sink)));
        return new SinkFreshness(ids, true, metrics::sinkFreshness, jobId);
    }

    /** Remote mode: the sinks' Flink histograms of job {@code jobId}, read over {@code rest}. */
    public static SinkFreshness remote(List<String> sinks, FlinkRestClient rest, Supplier<@Nullable String> jobId) {
        Map<String, String> names = new LinkedHashMap<>();
        sinks.forEach(sink -> names.put(sink, sink));
        return new SinkFreshness(names, false, job -> readRest(rest, job), jobId);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (!embedded) {
            return; // remote: the writers are in other JVMs
        }
        observerIds.forEach((sink, id) -> {
            Timer timer = Timer.builder("streamsplit.kafka.sink.freshness")
                    .description("Now minus the timestamp of each record's element when the sink writes it")
                    .tag("sink", sink)
                    .register(registry);
            timers.put(sink, timer);
            SinkObservers.register(id, millis -> timer.record(millis, TimeUnit.MILLISECONDS));
        });
    }

    /**
     * Each sink's freshness by name: the median, p99 and max in ms of its writers' recent records (the
     * highest over its subtasks), and embedded the count of all records written. Empty when there is none
     * to show (before the job runs, or when Flink's REST API does not answer).
     */
    public Map<String, Object> describeAll() {
        Map<String, Object> all = new LinkedHashMap<>();
        timers.forEach((sink, timer) -> {
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("count", timer.count());
            all.put(sink, described);
        });
        String job = jobId.get();
        if (job == null) {
            return all;
        }
        List<RawMetric> values;
        try {
            values = histograms.read(job);
        } catch (Exception e) {
            return all;
        }
        for (RawMetric value : values) {
            String sink = sinkByOperator.get(value.operator());
            double number = value.asDouble();
            if (sink == null || !Double.isFinite(number) || number < 0) {
                continue;
            }
            String key = switch (value.name()) {
                case "median" -> "p50Ms";
                case "p99" -> "p99Ms";
                default -> "maxMs";
            };
            Map<String, Object> described = (Map<String, Object>) all.computeIfAbsent(sink, s -> new LinkedHashMap<>());
            described.merge(key, Math.round(number), (a, b) -> Math.max((Long) a, (Long) b));
        }
        return all;
    }

    /** The sink writers' histogram values of job {@code job} from Flink's REST API, one pass over its vertices. */
    private static List<RawMetric> readRest(FlinkRestClient rest, String job) throws Exception {
        List<RawMetric> values = new ArrayList<>();
        for (JsonNode vertex : rest.job(job).path("vertices")) {
            String base = "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/metrics";
            for (JsonNode metric :
                    rest.vertexMetrics(base, id -> HISTOGRAM.matcher(id).matches())) {
                Matcher m = HISTOGRAM.matcher(metric.path("id").asText());
                if (m.matches()) {
                    values.add(new RawMetric(
                            m.group(1),
                            -1,
                            null,
                            -1,
                            m.group(2),
                            metric.path("value").asText("NaN")));
                }
            }
        }
        return values;
    }

    @Override
    public void destroy() {
        observerIds.values().forEach(SinkObservers::unregister);
    }
}
