package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
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
        Topics.writeIds(KAFKA.bootstrapServers(), "orders-in", 0, 500);

        JobClient official = insert("kafka", null);
        assertThat(Topics.awaitValues(KAFKA.bootstrapServers(), "ids-out", 500)).hasSizeGreaterThanOrEqualTo(500);
        String savepoint = official.stopWithSavepoint(
                        false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);

        Topics.writeIds(KAFKA.bootstrapServers(), "orders-in", 500, 1_000);
        JobClient ours = insert(StreamSplitKafkaTableFactory.IDENTIFIER, savepoint);
        try {
            assertThat(Topics.awaitValues(KAFKA.bootstrapServers(), "ids-out", 1_000))
                    .hasSizeGreaterThanOrEqualTo(1_000);
            // anything read twice would arrive within the next checkpoints
            await().during(Duration.ofSeconds(2))
                    .pollInterval(Duration.ofMillis(250))
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(Topics.values(KAFKA.bootstrapServers(), "ids-out"))
                            .hasSize(1_000)
                            .doesNotHaveDuplicates());
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
}
