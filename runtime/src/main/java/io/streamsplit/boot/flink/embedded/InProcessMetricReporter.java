package io.streamsplit.boot.flink.embedded;

import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.jspecify.annotations.Nullable;

/** Hands the Kafka source operators' metrics of an embedded cluster to its {@link InProcessMetrics}. */
final class InProcessMetricReporter implements MetricReporter {

    /** {@code null} for a configuration copied from a closed context: nothing is reported. */
    private final @Nullable InProcessMetrics registry;

    InProcessMetricReporter(@Nullable InProcessMetrics registry) {
        this.registry = registry;
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        if (registry != null) {
            registry.add(metric, metricName, group);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        if (registry != null) {
            registry.remove(metric);
        }
    }
}
