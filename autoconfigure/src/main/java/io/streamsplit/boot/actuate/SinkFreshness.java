package io.streamsplit.boot.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.streamsplit.connector.kafka.sink.SinkObservers;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;

/**
 * {@code streamsplit.kafka.sink.freshness} (tag sink): a Micrometer timer of <em>now − the element's
 * timestamp</em> for each record a sink writes — for a record-to-record pipeline, how old the input
 * record is when its result is written. The sink writers run in this JVM (embedded MiniCluster) and
 * report each record here; percentiles are p50 and p99 unless {@code management.metrics.distribution.*}
 * says otherwise, as for any timer. The endpoint and health show the same figures per sink.
 */
public final class SinkFreshness implements MeterBinder, DisposableBean {

    private final Map<String, String> observerIds;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    /** @param observerIds each sink's observer id ({@code KafkaSinkFactory.freshnessObserverId}) */
    public SinkFreshness(Map<String, String> observerIds) {
        this.observerIds = Map.copyOf(observerIds);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
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

    /** The sink's freshness so far (count, mean, max and the published percentiles, in ms), or {@code null}. */
    public @Nullable Map<String, Object> describe(String sink) {
        Timer timer = timers.get(sink);
        if (timer == null) {
            return null;
        }
        HistogramSnapshot snapshot = timer.takeSnapshot();
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("count", snapshot.count());
        if (snapshot.count() > 0) {
            for (ValueAtPercentile percentile : snapshot.percentileValues()) {
                described.put(
                        "p" + percentileName(percentile.percentile()),
                        Math.round(percentile.value(TimeUnit.MILLISECONDS)));
            }
            described.put("meanMs", Math.round(snapshot.mean(TimeUnit.MILLISECONDS)));
            described.put("maxMs", Math.round(snapshot.max(TimeUnit.MILLISECONDS)));
        }
        return described;
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
