package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.streamsplit.boot.autoconfigure.actuate.JobSplits;
import io.streamsplit.boot.autoconfigure.actuate.KafkaSplitStates;
import io.streamsplit.boot.autoconfigure.actuate.SourceState;
import io.streamsplit.boot.autoconfigure.actuate.SplitState;
import io.streamsplit.boot.autoconfigure.actuate.StreamSplitHealthIndicator;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSplitAssignment;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import org.apache.flink.configuration.MetricOptions;
import org.apache.kafka.common.TopicPartition;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.RemoteStreamEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Remote mode submits over Flink's REST API to a session cluster the application does not own
 * (here a MiniCluster reached only through its REST port), and cancels the job on shutdown.
 */
class RemoteModeIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static MiniCluster sessionCluster;
    private static URI rest;

    @BeforeAll
    static void startSessionCluster() throws Exception {
        Configuration config = new Configuration();
        config.set(RestOptions.BIND_PORT, "0");
        // the REST metric store refreshes every 10 s by default; the split endpoint is as fresh as it
        config.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(500));
        sessionCluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(config)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build());
        sessionCluster.start();
        rest = sessionCluster.getRestAddress().get();
    }

    @AfterAll
    static void stopSessionCluster() throws Exception {
        sessionCluster.close();
    }

    @Test
    void jobRunsOnTheSessionClusterAndIsCancelledOnShutdown() throws Exception {
        KAFKA.broker().createTopic("remote-in", 2);
        KAFKA.broker().createTopic("remote-out", 1);
        JobClient client;
        try (ConfigurableApplicationContext app = WordsApplication.start(KAFKA.bootstrapServers(), "remote",
                "streamsplit.flink.mode=remote", "streamsplit.flink.remote.host=" + rest.getHost(),
                "streamsplit.flink.remote.port=" + rest.getPort())) {
            assertThat(app.getBeansOfType(EmbeddedFlinkCluster.class)).isEmpty();
            assertThat(app.getBean(org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.class))
                    .isInstanceOf(RemoteStreamEnvironment.class);
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-in", List.of("a", "b", "c"));
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                    assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-out"))
                            .containsExactlyInAnyOrder("A", "B", "C"));
            client = app.getBean(JobClient.class);
            assertThat(sessionCluster.getJobStatus(client.getJobID()).get()).isEqualTo(JobStatus.RUNNING);

            // split state and health come from the session cluster's REST API, not from an in-process handle
            KafkaSplitStates splits = app.getBean(KafkaSplitStates.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                JobSplits state = splits.read();
                assertThat(state.mode()).isEqualTo("remote");
                SourceState words = state.sources().get("words");
                assertThat(words.splits()).extracting(SplitState::topic, SplitState::partition)
                        .containsExactly(tuple("remote-in", 0), tuple("remote-in", 1));
                assertThat(words.splits()).allSatisfy(split -> assertThat(split.readerSubtask()).isEqualTo(
                        KafkaSplitAssignment.ownerOf(new TopicPartition("remote-in", split.partition()), 2)));
                assertThat(words.splits().stream().mapToLong(SplitState::currentOffset).sum()).isEqualTo(3);
                assertThat(words.lag()).isZero();
                assertThat(words.assignedSplits()).isEqualTo(2);
                assertThat(words.recordsIn()).isEqualTo(3);
            });
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Health health = app.getBean(StreamSplitHealthIndicator.class).health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsEntry("status", "RUNNING");
            });
        }
        assertThat(sessionCluster.getJobStatus(client.getJobID()).get()).isEqualTo(JobStatus.CANCELED);
    }
}
