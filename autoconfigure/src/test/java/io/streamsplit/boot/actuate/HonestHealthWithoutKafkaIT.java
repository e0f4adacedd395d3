package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.Words;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Health over a real HTTP port never says UP for a job that cannot make progress: with Kafka away
 * (started anyway, {@code startup-check.mode: warn}) the sequence of statuses has no UP and ends DOWN,
 * naming the source and the address no broker answered at. The sink's case is {@link HonestHealthIT}.
 */
class HonestHealthWithoutKafkaIT {

    private final HealthOverHttp health = new HealthOverHttp();

    @Test
    void kafkaThatDoesNotAnswerIsDownWithTheReasonNotUp() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        // by default the instance must first join the replicas' election, through the same Kafka
        try (ConfigurableApplicationContext app = Words.start("localhost:" + port, "away", HealthOverHttp.WEB)) {
            assertThat(health.untilDown(app, "has not joined the replicas' election", "localhost:" + port))
                    .doesNotContain("UP");
        }
        String[] withoutElection = java.util.stream.Stream.concat(
                        java.util.Arrays.stream(HealthOverHttp.WEB),
                        java.util.stream.Stream.of("streamsplit.flink.embedded.replicas.election=false"))
                .toArray(String[]::new);
        try (ConfigurableApplicationContext app = Words.start("localhost:" + port, "away", withoutElection)) {
            assertThat(health.untilDown(app, "source 'words' has not found its partitions", "localhost:" + port))
                    .doesNotContain("UP");
            assertThat(health.read(app)
                            .path("details")
                            .path("kafkaProblems")
                            .get(0)
                            .asText())
                    .contains("nothing listens at localhost:" + port);
        }
    }
}
