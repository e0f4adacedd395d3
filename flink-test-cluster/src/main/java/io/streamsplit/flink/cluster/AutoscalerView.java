package io.streamsplit.flink.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A job's sources as the Flink Kubernetes Operator's autoscaler sees them through Flink's REST API:
 * for each source vertex (a plan node without inputs), the Kafka partitions it reads, found by
 * matching the vertex's aggregated subtask metric names, and its backlog ({@code pendingRecords}).
 * Flink's metric query service writes {@code .} in a topic name as {@code _}, so a topic
 * {@code orders.v1} shows as partitions {@code orders_v1-0, ...}: the count, which bounds the
 * parallelism, is unaffected.
 *
 * <pre>{@code
 * Map<String, AutoscalerView.Source> sources = AutoscalerView.read(cluster, jobId);
 * }</pre>
 */
public final class AutoscalerView {

    /**
     * The autoscaler's partition pattern (Kafka part), from {@code ScalingMetricCollector
     * #updateKafkaPulsarSourceNumPartitions} in apache/flink-kubernetes-operator (flink-autoscaler);
     * the backlog is {@code FlinkMetric.PENDING_RECORDS}: a name ending in {@code .pendingRecords}.
     */
    public static final Pattern PARTITION = Pattern.compile(
            "^.*\\.KafkaSourceReader\\.topic\\.(?<kafkaTopic>.+)\\.partition\\.(?<kafkaId>\\d+)\\.currentOffset$");

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the autoscaler derives for one source vertex. */
    public record Source(String vertex, Set<String> partitions, List<String> pendingRecordsMetrics, double backlog) {}

    private AutoscalerView() {}

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("Flink REST answered no JSON: " + json, e);
        }
    }

    /** Every source vertex of job {@code jobId}, by vertex name. */
    public static Map<String, Source> read(StandaloneFlinkCluster cluster, String jobId) {
        JsonNode job = tree(cluster.get("/jobs/" + jobId));
        Map<String, String> names = new TreeMap<>();
        job.path("vertices")
                .forEach(v -> names.put(v.path("id").asText(), v.path("name").asText()));
        Map<String, Source> sources = new TreeMap<>();
        for (JsonNode node : job.path("plan").path("nodes")) {
            if (node.has("inputs") && !node.path("inputs").isEmpty()) {
                continue;
            }
            String vertex = node.path("id").asText();
            String base = "/jobs/" + jobId + "/vertices/" + vertex + "/subtasks/metrics";
            List<String> metrics = new ArrayList<>();
            tree(cluster.get(base)).forEach(m -> metrics.add(m.path("id").asText()));
            Set<String> partitions = new TreeSet<>();
            List<String> pending = new ArrayList<>();
            for (String metric : metrics) {
                Matcher matcher = PARTITION.matcher(metric);
                if (matcher.matches()) {
                    partitions.add(matcher.group("kafkaTopic") + "-" + matcher.group("kafkaId"));
                }
                if (metric.endsWith(".pendingRecords")) {
                    pending.add(metric);
                }
            }
            double backlog = 0;
            for (String metric : pending) {
                for (JsonNode value : tree(cluster.get(base + "?get=" + metric + "&agg=sum"))) {
                    backlog += value.path("sum").asDouble();
                }
            }
            sources.put(names.get(vertex), new Source(vertex, partitions, pending, backlog));
        }
        return sources;
    }
}
