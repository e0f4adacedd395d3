package io.streamsplit.boot.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.CompositeType;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageDatasetFacet;
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

    /**
     * One dataset: where ({@code kafka://host:port}) and what (topics joined by commas, or a pattern), and the
     * fields of its records where their type has named fields (a POJO, an Avro record class, a SQL row), else
     * none.
     */
    public record Dataset(String namespace, String name, List<Field> fields) {

        public Dataset(String namespace, String name) {
            this(namespace, name, List.of());
        }

        /** The same dataset whatever is known of its fields. */
        boolean sameAs(Dataset other) {
            return namespace.equals(other.namespace) && name.equals(other.name);
        }
    }

    /** A field of a dataset's records: its name and its type as Flink names it. */
    public record Field(String name, String type) {}

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
        alsoWritten.stream()
                .filter(dataset -> out.stream().noneMatch(dataset::sameAs))
                .forEach(out::add);
        inputs = List.copyOf(in);
        outputs = List.copyOf(out);
    }

    private static void add(LineageVertex vertex, List<Dataset> into) {
        for (LineageDataset dataset : vertex.datasets()) {
            Dataset described = new Dataset(dataset.namespace(), dataset.name(), fields(dataset));
            if (into.stream().noneMatch(described::sameAs)) {
                into.add(described);
            }
        }
    }

    /** The connector's type of Protobuf messages (protobuf-java is optional, so it is named, not imported). */
    private static final String PROTOBUF = "io.streamsplit.connector.kafka.format.ProtobufTypeInfo";

    /** Flink's type of Avro GenericRecords (flink-avro), whose schema only its text shows. */
    private static final String GENERIC_AVRO = "org.apache.flink.formats.avro.typeutils.GenericRecordAvroTypeInfo";

    /** The fields of an Avro record schema, from {@code GenericRecord("<schema JSON>")}; none if it is not one. */
    static List<Field> avroFields(String typeText) {
        String prefix = "GenericRecord(\"";
        if (!typeText.startsWith(prefix) || !typeText.endsWith("\")")) {
            return List.of();
        }
        try {
            JsonNode schema = new ObjectMapper().readTree(typeText.substring(prefix.length(), typeText.length() - 2));
            if (!"record".equals(schema.path("type").asText())) {
                return List.of();
            }
            List<Field> fields = new ArrayList<>();
            for (JsonNode field : schema.path("fields")) {
                JsonNode type = field.path("type");
                fields.add(new Field(field.path("name").asText(), type.isTextual() ? type.asText() : type.toString()));
            }
            return List.copyOf(fields);
        } catch (java.io.IOException notJson) {
            return List.of();
        }
    }

    /**
     * The fields of a generated Protobuf message class, from its descriptor ({@code getDescriptor()}), read
     * reflectively: protobuf-java is the application's choice, not a dependency of the runtime.
     */
    private static List<Field> protobufFields(Class<?> message) {
        try {
            Object descriptor = message.getMethod("getDescriptor").invoke(null);
            List<Field> fields = new ArrayList<>();
            for (Object field :
                    (List<?>) descriptor.getClass().getMethod("getFields").invoke(descriptor)) {
                fields.add(new Field(
                        String.valueOf(field.getClass().getMethod("getName").invoke(field)),
                        String.valueOf(field.getClass().getMethod("getType").invoke(field))
                                .toLowerCase(java.util.Locale.ROOT)));
            }
            return List.copyOf(fields);
        } catch (ReflectiveOperationException | ClassCastException notAGeneratedMessage) {
            return List.of();
        }
    }

    /** The fields of the type the dataset's type facet (the official Kafka connector's) names, if it has any. */
    private static List<Field> fields(LineageDataset dataset) {
        try {
            LineageDatasetFacet facet = dataset.facets().get("type");
            if (facet instanceof org.apache.flink.connector.kafka.lineage.TypeDatasetFacet typed) {
                TypeInformation<?> type = typed.getTypeInformation();
                if (type instanceof CompositeType<?> composite) {
                    List<Field> fields = new ArrayList<>();
                    String[] names = composite.getFieldNames();
                    for (int i = 0; i < names.length; i++) {
                        fields.add(new Field(names[i], composite.getTypeAt(i).toString()));
                    }
                    return List.copyOf(fields);
                }
                if (type.getClass().getName().equals(GENERIC_AVRO)) {
                    return avroFields(type.toString());
                }
                if (type.getClass().getName().equals(PROTOBUF)) {
                    return protobufFields(type.getTypeClass());
                }
            }
        } catch (LinkageError | RuntimeException withoutTheLibraries) {
            // no type facets to read (the official connector, or Avro, is not there), or a schema Avro refuses
        }
        return List.of();
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
        if (!dataset.fields().isEmpty()) {
            Map<String, String> fields = new LinkedHashMap<>();
            dataset.fields().forEach(field -> fields.put(field.name(), field.type()));
            described.put("fields", fields);
        }
        return described;
    }
}
