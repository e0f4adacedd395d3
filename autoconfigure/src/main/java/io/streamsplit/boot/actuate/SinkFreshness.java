package io.streamsplit.boot.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import io.streamsplit.boot.flink.embedded.RawMetric;
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
 * {@code streamsplit.kafka.sink.freshness} (tag sink): a Micrometer timer of <em>now − the element's
 * timestamp</em> for each record a sink writes — for a record-to-record pipeline, how old the input
 * record is when its result is written. The sink writers run in this JVM (embedded MiniCluster) and
 * report each record here; percentiles are p50 and p99 unless {@code management.metrics.distribution.*}
 * says otherwise, as for any timer. The endpoint and health show the same figures per sink.
 *
 * <p>On a remote cluster the writers run on the TaskManagers: there is no timer in the application,
 * and the endpoint and health show the median, p99 and max of each writer's Flink histogram (its last
 * 1,024 records; the highest over the sink's subtasks), read over Flink's REST API.
 */
public final class SinkFreshness implements MeterBinder, DisposableBean {

    private static final Pattern HISTOGRAM =
            Pattern.compile("^\\d+\\.([^.]+)\\.(?:.+\\.)?" + ObservedSerializationSchema.METRIC + "_(median|p99|max)$");

    private final Map<String, String> observerIds;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final @Nullable FlinkRestClient rest;
    private final Supplier<@Nullable String> jobId;

    private SinkFreshness(
            Map<String, String> observerIds, @Nullable FlinkRestClient rest, Supplier<@Nullable String> jobId) {
        this.observerIds = Map.copyOf(observerIds);
        this.rest = rest;
        this.jobId = jobId;
    }

    /** Embedded mode: the sinks of the application whose id is {@code applicationId} ({@code KafkaSinkFactory.applicationId}). */
    public static SinkFreshness embedded(String applicationId, List<String> sinks) {
        Map<String, String> ids = new LinkedHashMap<>();
        sinks.forEach(sink -> ids.put(sink, ObservedSerializationSchema.observerId(applicationId, sink)));
        return new SinkFreshness(ids, null, () -> null);
    }

    /** Remote mode: the sinks' Flink histograms of job {@code jobId}, read over {@code rest}. */
    public static SinkFreshness remote(List<String> sinks, FlinkRestClient rest, Supplier<@Nullable String> jobId) {
        Map<String, String> names = new LinkedHashMap<>();
        sinks.forEach(sink -> names.put(sink, sink));
        return new SinkFreshness(names, rest, jobId);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (rest != null) {
            return; // remote: the writers are in other JVMs
        }
        observerIds.forEach((sink, id) -> {
            Timer timer = Timer.builder("streamsplit.kafka.sink.freshness")
                    .description("Now minus the timestamp of each record's element when the sink writes it")
                    .tag("sink", sink)
                    .publishPercentiles(0.5, 0.99)
                    .register(registry);
            timers.put(sink, timer);
            SinkObservers.register(id, millis -> timer.record(millis, TimeUnit.MILLISECONDS));
        });
    }

    /**
     * Each sink's freshness by name, in ms: embedded, count, the published percentiles, mean and max;
     * remote, median, p99 and max of the writers' recent records (one read of Flink's REST API). Empty
     * when there is none to show.
     */
    public Map<String, Object> describeAll() {
        Map<String, Object> all = new LinkedHashMap<>();
        if (rest != null) {
            all.putAll(readRemote());
            return all;
        }
        observerIds.keySet().forEach(sink -> {
            Map<String, Object> described = describe(sink);
            if (described != null) {
                all.put(sink, described);
            }
        });
        return all;
    }

    /** Embedded: the sink's freshness so far (count, the published percentiles, mean and max, in ms), or {@code null}. */
    private @Nullable Map<String, Object> describe(String sink) {
        Timer timer = timers.get(sink);
        if (timer == null) {
            return null;
        }
        HistogramSnapshot snapshot = timer.takeSnapshot();
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("count", snapshot.count());
        if (snapshot.count() > 0) {
            long max = Math.round(snapshot.max(TimeUnit.MILLISECONDS));
            for (ValueAtPercentile percentile : snapshot.percentileValues()) {
                // a percentile is interpolated within its histogram bucket: never show it above the max seen
                described.put(
                        "p" + percentileName(percentile.percentile()),
                        Math.min(max, Math.round(percentile.value(TimeUnit.MILLISECONDS))));
            }
            described.put("meanMs", Math.round(snapshot.mean(TimeUnit.MILLISECONDS)));
            described.put("maxMs", Math.round(snapshot.max(TimeUnit.MILLISECONDS)));
        }
        return described;
    }

    /** Sink → {p50Ms, p99Ms, maxMs}, the highest over its writers; empty before the job runs or on a REST error. */
    private Map<String, Object> readRemote() {
        String job = jobId.get();
        Map<String, Object> bySink = new LinkedHashMap<>();
        if (job == null || rest == null) {
            return bySink;
        }
        Map<String, String> sinkByOperator = new LinkedHashMap<>();
        observerIds.keySet().forEach(sink -> sinkByOperator.put(RawMetric.filter("sink " + sink + ": Writer"), sink));
        try {
            for (JsonNode vertex : rest.job(job).path("vertices")) {
                String base = "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/metrics";
                List<JsonNode> metrics = new ArrayList<>(rest.vertexMetrics(base, id -> {
                    Matcher m = HISTOGRAM.matcher(id);
                    return m.matches() && sinkByOperator.containsKey(m.group(1));
                }));
                for (JsonNode metric : metrics) {
                    Matcher m = HISTOGRAM.matcher(metric.path("id").asText());
                    if (!m.matches()) {
                        continue;
                    }
                    double value = Double.parseDouble(metric.path("value").asText("NaN"));
                    if (!Double.isFinite(value)) {
                        continue;
                    }
                    String key = switch (m.group(2)) {
                        case "median" -> "p50Ms";
                        case "p99" -> "p99Ms";
                        default -> "maxMs";
                    };
                    Map<String, Object> described = (Map<String, Object>)
                            bySink.computeIfAbsent(sinkByOperator.get(m.group(1)), s -> new LinkedHashMap<>());
                    described.merge(key, Math.round(value), (a, b) -> Math.max((Long) a, (Long) b));
                }
            }
        } catch (Exception e) {
            return Map.of();
        }
        return bySink;
    }

    private static String percentileName(double percentile) {
        String digits = Double.toString(percentile * 100);
        return (digits.endsWith(".0") ? digits.substring(0, digits.length() - 2) : digits.replace('.', '_')) + "Ms";
    }

    @Override
    public void destroy() {
        observerIds.values().forEach(SinkObservers::unregister);
    }
}
