package io.streamsplit.boot.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageGraph;
import org.apache.flink.streaming.api.lineage.LineageGraphUtils;
import org.apache.flink.streaming.api.lineage.LineageVertex;

/**
 * The job's lineage as Flink's lineage interface (FLIP-314) sees the graph the pipelines built: the datasets its
 * sources read and its sinks write — for StreamSplit's sources, the official sinks and the dead-letter writers,
 * Kafka topics namespaced {@code kafka://<first bootstrap server>}. What OpenLineage's Flink listener reports is
 * built from the same vertices.
 */
public final class JobLineage {

    /** One dataset: where ({@code kafka://host:port}) and what (topics joined by commas, or a pattern). */
    public record Dataset(String namespace, String name) {}

    private volatile List<Dataset> inputs = List.of();
    private volatile List<Dataset> outputs = List.of();

    /**
     * Reads the lineage of {@code transformations} (before the stream graph is built from them), with {@code
     * alsoWritten}: what operators write that are no sinks (a table source's own dead-letter writer), which Flink's
     * lineage interface does not see.
     */
    void record(List<Transformation<?>> transformations, List<Dataset> alsoWritten) {
        LineageGraph graph = LineageGraphUtils.convertToLineageGraph(transformations);
        List<Dataset> in = new ArrayList<>();
        graph.sources().forEach(source -> add(source, in));
        List<Dataset> out = new ArrayList<>();
        graph.sinks().forEach(sink -> add(sink, out));
        alsoWritten.stream().filter(dataset -> !out.contains(dataset)).forEach(out::add);
        inputs = List.copyOf(in);
        outputs = List.copyOf(out);
    }

    private static void add(LineageVertex vertex, List<Dataset> into) {
        for (LineageDataset dataset : vertex.datasets()) {
            Dataset described = new Dataset(dataset.namespace(), dataset.name());
            if (!into.contains(described)) {
                into.add(described);
            }
        }
    }

    /** The datasets the job reads. */
    public List<Dataset> inputs() {
        return inputs;
    }

    /** The datasets the job writes, dead-letter topics among them. */
    public List<Dataset> outputs() {
        return outputs;
    }

    /** {@code {"inputs": [{"namespace": …, "name": …}], "outputs": […]}}, for the endpoint. */
    public Map<String, Object> describe() {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("inputs", inputs.stream().map(JobLineage::describe).toList());
        described.put("outputs", outputs.stream().map(JobLineage::describe).toList());
        return described;
    }

    private static Map<String, Object> describe(Dataset dataset) {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("namespace", dataset.namespace());
        described.put("name", dataset.name());
        return described;
    }
}
