package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
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
            Topics.writeIds(KAFKA.bootstrapServers(), "eo-in", 0, IDS / 2);
            JobClient job = sql.executeSql("INSERT INTO ids SELECT id FROM orders")
                    .getJobClient()
                    .orElseThrow();
            try {
                assertThat(Topics.awaitValues(KAFKA.bootstrapServers(), "eo-out", IDS / 4))
                        .hasSizeGreaterThanOrEqualTo(IDS / 4);
                cluster.terminateTaskManager(0).get(30, TimeUnit.SECONDS);
                cluster.startTaskManager();
                Topics.writeIds(KAFKA.bootstrapServers(), "eo-in", IDS / 2, IDS);
                assertThat(Topics.awaitValues(KAFKA.bootstrapServers(), "eo-out", IDS))
                        .hasSizeGreaterThanOrEqualTo(IDS);
                assertThat(cluster.getArchivedExecutionGraph(job.getJobID())
                                .get(10, TimeUnit.SECONDS)
                                .getFailureInfo())
                        .as("the TaskManager's loss failed the job, which restarted")
                        .isNotNull();
                // a replay the restart did not cover would be committed within the next checkpoints
                await().during(Duration.ofSeconds(2))
                        .pollInterval(Duration.ofMillis(250))
                        .atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(Topics.values(KAFKA.bootstrapServers(), "eo-out"))
                                .hasSize(IDS)
                                .doesNotHaveDuplicates());
            } finally {
                job.cancel().get(30, TimeUnit.SECONDS);
            }
        }
    }
}
