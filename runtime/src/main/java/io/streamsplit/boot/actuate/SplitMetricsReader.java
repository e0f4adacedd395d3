package io.streamsplit.boot.actuate;

import io.streamsplit.boot.flink.embedded.InProcessMetrics;
import io.streamsplit.boot.flink.embedded.RawMetric;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

/** Reads the current source metrics of a job: in-process (embedded mode) or over Flink REST (remote). */
public interface SplitMetricsReader {

    List<RawMetric> read(String jobId) throws Exception;

    /** In-process: live gauge values, no network hop. */
    static SplitMetricsReader inProcess(InProcessMetrics metrics) {
        return metrics::read;
    }

    /** Over Flink REST: values as fresh as the cluster's metric fetcher ({@code metrics.fetcher.update-interval}). */
    static SplitMetricsReader rest(FlinkRestClient rest) {
        return new RestSplitMetricsReader(rest);
    }

    /** Parses the metric ids of Flink's REST API for the source operators of a job. */
    final class RestSplitMetricsReader implements SplitMetricsReader {

        private static final String READER = KafkaSourceMetricNames.READER_GROUP;
        // <subtask>.<operator>.<metric path>
        private static final Pattern TASK_METRIC = Pattern.compile("^(\\d+)\\.(Source__[^.]+)\\.(.+)$");
        private static final Pattern PARTITION_PATH =
                Pattern.compile("^" + READER + "\\." + KafkaSourceMetricNames.TOPIC_GROUP + "\\.([^.]+)\\."
                        + KafkaSourceMetricNames.PARTITION_GROUP + "\\.(\\d+)\\.(\\w+)$");
        // <operator chain>.coordinator.enumerator.<metric> on the JobManager (the split enumerator)
        private static final Pattern JM_METRIC = Pattern.compile("^(Source__[^.]+)\\.(?:.+\\.)?(\\w+)$");

        private final FlinkRestClient rest;

        RestSplitMetricsReader(FlinkRestClient rest) {
            this.rest = rest;
        }

        @Override
        public List<RawMetric> read(String jobId) throws Exception {
            List<RawMetric> metrics = new ArrayList<>();
            for (JsonNode vertex : rest.job(jobId).path("vertices")) {
                if (!vertex.path("name").asText().contains("Source: ")) {
                    continue;
                }
                String base =
                        "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText();
                for (JsonNode metric : rest.vertexMetrics(base + "/metrics", RestSplitMetricsReader::isSourceMetric)) {
                    parseTaskMetric(
                            metric.path("id").asText(), metric.path("value").asText(), metrics);
                }
                for (JsonNode metric : rest.vertexMetrics(
                        base + "/jm-operator-metrics",
                        id -> JM_METRIC.matcher(id).matches())) {
                    Matcher m = JM_METRIC.matcher(metric.path("id").asText());
                    if (m.matches() && KafkaSourceMetricNames.OPERATOR_METRICS.contains(m.group(2))) {
                        metrics.add(new RawMetric(
                                m.group(1),
                                -1,
                                null,
                                -1,
                                m.group(2),
                                metric.path("value").asText()));
                    }
                }
            }
            return metrics;
        }

        private static boolean isSourceMetric(String id) {
            Matcher m = TASK_METRIC.matcher(id);
            return m.matches()
                    && (m.group(3).startsWith(READER + ".")
                            || KafkaSourceMetricNames.OPERATOR_METRICS.contains(m.group(3)));
        }

        private static void parseTaskMetric(String id, String value, List<RawMetric> into) {
            Matcher m = TASK_METRIC.matcher(id);
            if (!m.matches()) {
                return;
            }
            int subtask = Integer.parseInt(m.group(1));
            String path = m.group(3);
            Matcher partition = PARTITION_PATH.matcher(path);
            if (partition.matches()) {
                into.add(new RawMetric(
                        m.group(2),
                        subtask,
                        partition.group(1),
                        Integer.parseInt(partition.group(2)),
                        partition.group(3),
                        value));
            } else {
                String name = path.startsWith(READER + ".") ? path.substring(READER.length() + 1) : path;
                into.add(new RawMetric(m.group(2), subtask, null, -1, name, value));
            }
        }
    }
}
