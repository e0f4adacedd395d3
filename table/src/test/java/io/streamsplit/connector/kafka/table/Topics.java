package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writing JSON ids into a topic, reading a one-partition topic to its end, and a query's rows, for the SQL ITs. */
final class Topics {

    private Topics() {}

    /** Writes {@code {"id":i}} for {@code from <= i < to}, spread over the topic's partitions. */
    static void writeIds(String bootstrapServers, String topic, int from, int to) {
        Properties producer = new Properties();
        producer.put("bootstrap.servers", bootstrapServers);
        try (KafkaProducer<String, String> kafka =
                new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < to; i++) {
                kafka.send(new ProducerRecord<>(topic, "{\"id\":" + i + "}"));
            }
        }
    }

    /** Reads partition 0 of {@code topic} until it holds at least {@code count} values (or 2 minutes pass). */
    static List<String> awaitValues(String bootstrapServers, String topic, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        List<String> values = values(bootstrapServers, topic);
        while (values.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(250);
            values = values(bootstrapServers, topic);
        }
        return values;
    }

    /** The values of partition 0 of {@code topic}, committed ones only ({@code read_committed}). */
    static List<String> values(String bootstrapServers, String topic) {
        Properties consumer = new Properties();
        consumer.put("bootstrap.servers", bootstrapServers);
        consumer.put("isolation.level", "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> kafka =
                new KafkaConsumer<>(consumer, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            kafka.assign(List.of(partition));
            kafka.seekToBeginning(List.of(partition));
            long end = kafka.endOffsets(List.of(partition)).get(partition);
            while (kafka.position(partition) < end) {
                for (ConsumerRecord<String, String> record : kafka.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }

    /**
     * The rows of {@code query} over {@code table}, once its plan shows it reads with {@code source}
     * ({@code Source: KafkaSource-} or {@code Source: StreamSplitKafkaSource-}): the differential tests'
     * proof that each table reads with its own connector.
     */
    static List<String> rowsReadBy(TableEnvironment sql, String source, String query) {
        String plan = sql.explainSql(query, ExplainDetail.JSON_EXECUTION_PLAN);
        assertThat(plan)
                .as("the execution plan reads with the connector's own source")
                .contains(source + "default_catalog");
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(row -> rows.add(row.toString()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }
}
