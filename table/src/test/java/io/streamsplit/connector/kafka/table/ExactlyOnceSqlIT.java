package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A SQL pipeline on the StreamSplit source into the official exactly-once sink survives a TaskManager
 * that dies mid-stream: the job restarts from its last checkpoint and a {@code read_committed} reader
 * sees every id exactly once.
 */
class ExactlyOnceSqlIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final int IDS = 4_000;

    @Test
    void everyIdOnceThroughATaskManagerFailure() throws Exception {
        KAFKA.broker().createTopic("eo-in", 3);
        KAFKA.broker().createTopic("eo-out", 1);
        Configuration config = new Configuration();
        config.set(RestOptions.PORT, 0);
        config.setString("restart-strategy.type", "fixed-delay");
        config.setString("restart-strategy.fixed-delay.attempts", "5");
        config.setString("restart-strategy.fixed-delay.delay", "500 ms");
        try (MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(config)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build())) {
            cluster.start();
            URI rest = cluster.getRestAddress().get();
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createRemoteEnvironment(rest.getHost(), rest.getPort(), config);
            env.setParallelism(2);
            env.enableCheckpointing(500);
            StreamTableEnvironment sql = StreamTableEnvironment.create(env);
            sql.executeSql("CREATE TABLE orders (id INT) WITH ('connector' = 'streamsplit-kafka', 'topic' = 'eo-in',"
                    + " 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                    + " 'properties.group.id' = 'eo-sql', 'scan.startup.mode' = 'earliest-offset',"
                    + " 'value.format' = 'json')");
            sql.executeSql("CREATE TABLE ids (id INT) WITH ('connector' = 'kafka', 'topic' = 'eo-out',"
                    + " 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                    + " 'properties.transaction.timeout.ms' = '600000',"
                    + " 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'eo-sql',"
                    + " 'value.format' = 'json')");
            write(0, IDS / 2);
            JobClient job = sql.executeSql("INSERT INTO ids SELECT id FROM orders")
                    .getJobClient()
                    .orElseThrow();
            try {
                awaitCommitted(IDS / 4);
                cluster.terminateTaskManager(0).get(30, TimeUnit.SECONDS);
                cluster.startTaskManager();
                write(IDS / 2, IDS);
                awaitCommitted(IDS);
                assertThat(cluster.getArchivedExecutionGraph(job.getJobID())
                                .get(10, TimeUnit.SECONDS)
                                .getFailureInfo())
                        .as("the TaskManager's loss failed the job, which restarted")
                        .isNotNull();
                Thread.sleep(2_000); // a replay the restart did not cover would be committed by now
                List<String> ids = committed();
                assertThat(ids).hasSize(IDS).doesNotHaveDuplicates();
            } finally {
                job.cancel().get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void write(int from, int to) {
        Properties producer = new Properties();
        producer.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (KafkaProducer<String, String> kafka =
                new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < to; i++) {
                kafka.send(new ProducerRecord<>("eo-in", "{\"id\":" + i + "}"));
            }
        }
    }

    private static List<String> awaitCommitted(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        List<String> ids = committed();
        while (ids.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(250);
            ids = committed();
        }
        assertThat(ids).as("committed ids").hasSizeGreaterThanOrEqualTo(count);
        return ids;
    }

    /** What a {@code read_committed} consumer sees in the output topic. */
    private static List<String> committed() {
        Properties consumer = new Properties();
        consumer.put("bootstrap.servers", KAFKA.bootstrapServers());
        consumer.put("isolation.level", "read_committed");
        List<String> ids = new ArrayList<>();
        try (KafkaConsumer<String, String> kafka =
                new KafkaConsumer<>(consumer, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition out = new TopicPartition("eo-out", 0);
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
