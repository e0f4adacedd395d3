package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Switching a running SQL job from {@code 'kafka'} to {@code 'streamsplit-kafka'} is one word: the job
 * stopped with a savepoint restores into the switched job, which continues at the offsets the official
 * source had (nothing read twice, nothing skipped), without allowing non-restored state.
 */
class SwitchSqlJobFromKafkaIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @TempDir
    Path savepoints;

    @Test
    void aSavepointOfTheOfficialSourceRestoresIntoTheSwitchedJob() throws Exception {
        KAFKA.broker().createTopic("orders-in", 2);
        KAFKA.broker().createTopic("ids-out", 1);
        write(0, 500);

        JobClient official = insert("kafka", null);
        awaitIds(500);
        String savepoint = official.stopWithSavepoint(
                        false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);

        write(500, 1_000);
        JobClient ours = insert(StreamSplitKafkaTableFactory.IDENTIFIER, savepoint);
        try {
            awaitIds(1_000);
            Thread.sleep(2_000); // anything read twice would arrive by now
            List<String> ids = readIds();
            assertThat(ids).hasSize(1_000).doesNotHaveDuplicates();
        } finally {
            ours.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    /** Starts {@code INSERT INTO ids SELECT id FROM orders} reading with {@code connector}, from {@code savepoint}. */
    private static JobClient insert(String connector, String savepoint) {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sql.getConfig().set("parallelism.default", "2");
        if (savepoint != null) {
            sql.getConfig().set("execution.state-recovery.path", savepoint);
        }
        sql.executeSql("CREATE TABLE orders (id INT) WITH ('connector' = '" + connector + "', 'topic' = 'orders-in',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                + " 'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json')");
        sql.executeSql("CREATE TABLE ids (id INT) WITH ('connector' = 'kafka', 'topic' = 'ids-out',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                + " 'sink.delivery-guarantee' = 'at-least-once', 'value.format' = 'json')");
        return sql.executeSql("INSERT INTO ids SELECT id FROM orders")
                .getJobClient()
                .orElseThrow();
    }

    private static void write(int from, int to) throws Exception {
        Properties producer = new Properties();
        producer.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (KafkaProducer<String, String> kafka =
                new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < to; i++) {
                kafka.send(new ProducerRecord<>("orders-in", i % 2, null, "{\"id\":" + i + "}"));
            }
        }
    }

    private static List<String> awaitIds(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        List<String> ids = readIds();
        while (ids.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(250);
            ids = readIds();
        }
        assertThat(ids).as("ids written by the job").hasSizeGreaterThanOrEqualTo(count);
        return ids;
    }

    private static List<String> readIds() {
        Properties consumer = new Properties();
        consumer.put("bootstrap.servers", KAFKA.bootstrapServers());
        List<String> ids = new ArrayList<>();
        try (KafkaConsumer<String, String> kafka =
                new KafkaConsumer<>(consumer, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition out = new TopicPartition("ids-out", 0);
            kafka.assign(List.of(out));
            kafka.seekToBeginning(List.of(out));
            long end = kafka.endOffsets(List.of(out)).get(out);
            while (kafka.position(out) < end) {
                for (ConsumerRecord<String, String> record : kafka.poll(Duration.ofMillis(500))) {
                    ids.add(record.value());
                }
            }
        }
        return ids;
    }
}
