package io.streamsplit.boot.flink.embedded;

import java.util.Properties;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Created by Flink (through {@code metrics.reporter.streamsplit.factory.class}); connects the
 * reporter to the registry named by {@code metrics.reporter.streamsplit.registry}.
 */
public final class InProcessMetricReporterFactory implements MetricReporterFactory {

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        // null for a configuration copied from a closed context: the reporter then reports nothing
        return new InProcessMetricReporter(
                InProcessMetrics.lookup(properties.getProperty(InProcessMetrics.REGISTRY_KEY)));
    }
}
