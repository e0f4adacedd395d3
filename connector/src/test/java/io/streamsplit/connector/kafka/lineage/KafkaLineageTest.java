package io.streamsplit.connector.kafka.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.sink.DeadLetterSerializationSchema;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacet;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;
import org.junit.jupiter.api.Test;

/**
 * The source tells Flink's lineage interface what it reads as the official Kafka connector does — namespace the
 * cluster, name the topics, the official facets — with the cluster's address and nothing else of the client's
 * settings; a dead-letter writer names its topic.
 */
class KafkaLineageTest {

    @Test
    void theSourceReportsItsTopicsOnItsClusterWithTheOfficialFacets() {
        StreamSplitKafkaSource<String> source = StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers("broker-1:9092,broker-2:9092")
                .setTopics("orders", "refunds")
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .setProperty("sasl.jaas.config", "secret")
                .build();
        SourceLineageVertex vertex = (SourceLineageVertex) source.getLineageVertex();
        assertThat(vertex.boundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(vertex.datasets()).hasSize(1);
        LineageDataset dataset = vertex.datasets().get(0);
        assertThat(dataset.namespace()).isEqualTo("kafka://broker-1:9092");
        assertThat(dataset.name()).isEqualTo("orders,refunds");
        KafkaDatasetFacet kafka = (KafkaDatasetFacet) dataset.facets().get("kafka");
        assertThat(kafka.getTopicIdentifier().getTopics()).containsExactly("orders", "refunds");
        assertThat(kafka.getProperties().stringPropertyNames())
                .as("the cluster's address, never its credentials")
                .containsExactly("bootstrap.servers");
        assertThat(((TypeDatasetFacet) dataset.facets().get("type")).getTypeInformation())
                .isEqualTo(Types.STRING);
    }

    @Test
    void aPatternSourceReportsItsPattern() {
        StreamSplitKafkaSource<String> source = StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers("broker-1:9092")
                .setTopicPattern(java.util.regex.Pattern.compile("orders-.*"))
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .build();
        assertThat(source.getLineageVertex().datasets().get(0).name()).isEqualTo("orders-.*");
    }

    @Test
    void aDeadLetterWriterReportsItsTopic() {
        assertThat(new DeadLetterSerializationSchema("orders.DLT").getKafkaDatasetFacet())
                .hasValueSatisfying(facet ->
                        assertThat(facet.getTopicIdentifier().getTopics()).containsExactly("orders.DLT"));
    }
}
