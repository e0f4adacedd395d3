package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
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
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
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
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WordsApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.application.name=remote-it", "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                        "streamsplit.kafka.sources.words.topics=remote-in",
                        "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
                        "streamsplit.kafka.sinks.upper.topic=remote-out", "streamsplit.kafka.sinks.upper.serializer=utf8",
                        "streamsplit.flink.mode=remote", "streamsplit.flink.remote.host=" + rest.getHost(),
                        "streamsplit.flink.remote.port=" + rest.getPort(), "streamsplit.flink.parallelism=2",
                        "streamsplit.flink.checkpointing.interval=500ms")
                .run()) {
            assertThat(app.getBeansOfType(EmbeddedFlinkCluster.class)).isEmpty();
            assertThat(app.getBean(org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.class))
                    .isInstanceOf(RemoteStreamEnvironment.class);
            KafkaTopics.write(KAFKA.bootstrapServers(), "remote-in", List.of("a", "b", "c"));
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                    assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "remote-out"))
                            .containsExactlyInAnyOrder("A", "B", "C"));
            client = app.getBean(JobClient.class);
            assertThat(sessionCluster.getJobStatus(client.getJobID()).get()).isEqualTo(JobStatus.RUNNING);
        }
        assertThat(sessionCluster.getJobStatus(client.getJobID()).get()).isEqualTo(JobStatus.CANCELED);
    }
}
