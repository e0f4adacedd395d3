package io.streamsplit.connector.kafka.lineage;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.streaming.api.lineage.DefaultLineageDataset;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;
import org.jspecify.annotations.Nullable;

/**
 * The lineage dataset of Kafka topics, as the official Kafka connector reports its own (FLINK-34466): namespace
 * {@code kafka://<first bootstrap server>}, name the topics joined by commas (or the pattern), the official {@code
 * KafkaDatasetFacet} and {@code TypeDatasetFacet}. Only {@code bootstrap.servers} goes into the facet — never the
 * client's credentials. Without the official connector on the class path the dataset carries no facets.
 *
 * <pre>{@code
 * SourceLineageVertex vertex = KafkaLineage.source(servers, List.of("orders"), null, type, Boundedness.CONTINUOUS_UNBOUNDED);
 * }</pre>
 */
@Internal
public final class KafkaLineage {

    private KafkaLineage() {}

    /** The namespace of a Kafka cluster: {@code kafka://} and its first bootstrap server. */
    public static String namespace(@Nullable String bootstrapServers) {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            return "kafka://";
        }
        return "kafka://" + bootstrapServers.split("[,;]")[0].trim();
    }

    /** The dataset of {@code topics} (or {@code pattern}) on the cluster at {@code bootstrapServers}. */
    public static LineageDataset dataset(
            @Nullable String bootstrapServers,
            List<String> topics,
            @Nullable String pattern,
            @Nullable TypeInformation<?> type) {
        String name = pattern != null ? pattern : String.join(",", topics);
        try {
            return Official.dataset(bootstrapServers, topics, pattern, type);
        } catch (LinkageError withoutTheOfficialConnector) {
            return new DefaultLineageDataset(name, namespace(bootstrapServers), Map.of());
        }
    }

    /** A source's vertex: its one dataset and its boundedness. */
    public static SourceLineageVertex source(LineageDataset dataset, Boundedness boundedness) {
        return new SourceLineageVertex() {
            @Override
            public Boundedness boundedness() {
                return boundedness;
            }

            @Override
            public List<LineageDataset> datasets() {
                return List.of(dataset);
            }
        };
    }

    /** What needs the official connector's lineage classes; loaded only when they are there. */
    private static final class Official {
        static LineageDataset dataset(
                @Nullable String bootstrapServers,
                List<String> topics,
                @Nullable String pattern,
                @Nullable TypeInformation<?> type) {
            Properties servers = new Properties();
            if (bootstrapServers != null) {
                servers.setProperty("bootstrap.servers", bootstrapServers);
            }
            var identifier = pattern != null
                    ? org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier.ofPattern(
                            Pattern.compile(pattern))
                    : org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier.ofTopics(topics);
            var kafka = new org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet(identifier, servers);
            return type == null
                    ? org.apache.flink.connector.kafka.lineage.LineageUtil.datasetOf(namespace(bootstrapServers), kafka)
                    : org.apache.flink.connector.kafka.lineage.LineageUtil.datasetOf(
                            namespace(bootstrapServers),
                            kafka,
                            new org.apache.flink.connector.kafka.lineage.DefaultTypeDatasetFacet(type));
        }
    }
}
