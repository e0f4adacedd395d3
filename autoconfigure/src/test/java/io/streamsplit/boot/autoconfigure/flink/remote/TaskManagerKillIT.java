package io.streamsplit.boot.autoconfigure.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Exactly-once through processes killed for real: remote mode with shipped jars, parallelism 4 over two
 * TaskManager JVMs with two slots each, 20,000 ids on 6 partitions (200,000 with {@code -Dchaos.ids=200000}). One TaskManager is killed with
 * SIGKILL mid-stream and a replacement started; later the other one. Every id reaches the output
 * exactly once, as a read_committed consumer sees it.
 */
class TaskManagerKillIT {

    private static final Logger LOG = LoggerFactory.getLogger(TaskManagerKillIT.class);
    /** CI runs a smoke of 20,000 ids; {@code -Dchaos.ids=200000} runs the full size. */
    private static final int IDS = Integer.getInteger("chaos.ids", 20_000);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private StandaloneFlinkCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyIdExactlyOnceThroughTwoKilledTaskManagers() throws Exception {
        cluster = StandaloneFlinkCluster.builder()
                .taskManagers(2)
                .taskSlots(2)
                // tests only: find a killed TaskManager in seconds, not after the 50 s default heartbeat timeout
                .config("heartbeat.interval", "1000")
                .config("heartbeat.timeout", "5000")
                .start();
        KAFKA.broker().createTopic("chaos-in", 6);
        KAFKA.broker().createTopic("chaos-out", 4);
        List<String> ids = IntStream.range(0, IDS).mapToObj(i -> "id-" + i).toList();
        List<Long> recoveries = new ArrayList<>();
        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "chaos",
                "streamsplit.flink.mode=remote",
                "streamsplit.flink.remote.host=localhost",
                "streamsplit.flink.remote.port=" + cluster.restPort(),
                "streamsplit.flink.remote.exclude-jars=junit-*.jar,assertj-*.jar,mockito-*.jar,byte-buddy*.jar,"
                        + "testcontainers-*.jar,docker-java-*.jar,jna-*.jar,awaitility-*.jar",
                "streamsplit.flink.parallelism=4",
                "streamsplit.flink.restart.delay=500ms",
                "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once")) {
            String jobId = app.getBean(JobClient.class).getJobID().toString();
            awaitAllTasksRunning(jobId);

            KafkaTopics.write(KAFKA.bootstrapServers(), "chaos-in", ids.subList(0, IDS / 2));
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> !KafkaTopics.values(KAFKA.bootstrapServers(), "chaos-out")
                            .isEmpty());
            recoveries.add(killAndReplace(0, jobId));

            KafkaTopics.write(KAFKA.bootstrapServers(), "chaos-in", ids.subList(IDS / 2, IDS));
            await().atMost(Duration.ofSeconds(120))
                    .until(() -> KafkaTopics.values(KAFKA.bootstrapServers(), "chaos-out")
                                    .size()
                            > IDS / 2);
            recoveries.add(killAndReplace(1, jobId));

            await().atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> KafkaTopics.values(KAFKA.bootstrapServers(), "chaos-out")
                                    .size()
                            >= IDS);
        }
        List<String> out = KafkaTopics.values(KAFKA.bootstrapServers(), "chaos-out");
        assertThat(out).hasSize(IDS).doesNotHaveDuplicates();
        assertThat(out)
                .containsExactlyInAnyOrderElementsOf(
                        ids.stream().map(String::toUpperCase).toList());
        LOG.info(
                "{} ids, 2 TaskManagers killed: out {}, lost 0, duplicated 0; kill → all tasks running again: {} ms",
                IDS,
                out.size(),
                recoveries);
    }

    /** Kills TaskManager {@code index}, starts a replacement, returns the ms until every task runs again. */
    private long killAndReplace(int index, String jobId) {
        long killedAt = System.nanoTime();
        long killedAtMillis = System.currentTimeMillis();
        cluster.killTaskManager(index);
        cluster.startTaskManager();
        // the job records the loss in its exception history (a restart can be over before a poll sees it),
        // then runs again on the new slots
        await().atMost(Duration.ofSeconds(60)).until(() -> latestFailure(jobId) >= killedAtMillis);
        awaitAllTasksRunning(jobId);
        return (System.nanoTime() - killedAt) / 1_000_000;
    }

    private void awaitAllTasksRunning(String jobId) {
        await().atMost(Duration.ofSeconds(120)).until(() -> allTasksRunning(jobId));
    }

    private long latestFailure(String jobId) {
        return JSON.readTree(cluster.get("/jobs/" + jobId + "/exceptions"))
                .path("exceptionHistory")
                .path("entries")
                .path(0)
                .path("timestamp")
                .asLong(0);
    }

    private boolean allTasksRunning(String jobId) {
        JsonNode job = JSON.readTree(cluster.get("/jobs/" + jobId));
        if (!job.path("state").asText().equals("RUNNING")
                || job.path("vertices").isEmpty()) {
            return false;
        }
        for (JsonNode vertex : job.path("vertices")) {
            if (!vertex.path("status").asText().equals("RUNNING")) {
                return false;
            }
        }
        return true;
    }
}
