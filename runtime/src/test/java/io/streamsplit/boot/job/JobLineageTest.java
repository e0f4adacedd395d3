package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;

/**
 * The job's lineage as the endpoint shows it: the source's topics on its cluster with the fields of its records,
 * and what operators that are no sinks write (a table source's dead-letter topic), added to the outputs once.
 */
class JobLineageTest {

    /** An order as a Flink POJO: its fields are the dataset's schema. */
    public static class Order {
        public String customer;
        public long amountCents;

        public Order() {}
    }

    @Test
    void theSourcesTopicsWithTheirRecordsFieldsAndTheDeadLettersWrittenBesideTheSinks() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamSplitKafkaSource<Order> source = StreamSplitKafkaSource.<Order>builder()
                .setBootstrapServers("broker-1:9092")
                .setTopics("orders")
                .setDeserializer(record -> new Order(), Order.class)
                .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").sinkTo(new DiscardingSink<>());
        JobLineage lineage = new JobLineage();
        JobLineage.Dataset deadLetters = new JobLineage.Dataset("kafka://broker-1:9092", "orders.DLT");
        lineage.record(env.getTransformations(), List.of(deadLetters, deadLetters));

        assertThat(lineage.inputs()).hasSize(1);
        JobLineage.Dataset orders = lineage.inputs().get(0);
        assertThat(orders.namespace()).isEqualTo("kafka://broker-1:9092");
        assertThat(orders.name()).isEqualTo("orders");
        assertThat(orders.fields())
                .extracting(JobLineage.Field::name)
                .containsExactlyInAnyOrder("customer", "amountCents");
        assertThat(lineage.outputs()).containsExactly(deadLetters);
        assertThat(lineage.describe().get("inputs").toString()).contains("fields");
        assertThat(((List<?>) lineage.describe().get("outputs")).get(0))
                .isEqualTo(Map.of("namespace", "kafka://broker-1:9092", "name", "orders.DLT"));
    }

    @Test
    void anAvroGenericRecordsFieldsComeFromItsSchema() {
        // what flink-avro's GenericRecordAvroTypeInfo says of itself: the only place its schema shows
        String type = "GenericRecord(\"{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
                + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]}]}\")";
        assertThat(JobLineage.avroFields(type))
                .containsExactly(
                        new JobLineage.Field("id", "string"), new JobLineage.Field("note", "[\"null\",\"string\"]"));
        assertThat(JobLineage.avroFields("GenericRecord(\"\"string\"\")")).isEmpty();
        assertThat(JobLineage.avroFields("String")).isEmpty();
    }
}
