package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Health of two replicas of one application (same job name, same Kafka), as readiness probes read it: the active
 * one UP with its running job, the standby UP in its role (ready to take over) naming the active instance and
 * running no job; when the active one stops, the standby runs the job and says so.
 */
class ReplicaHealthIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void theActiveReplicaIsUpWithItsJobAndTheStandbyIsUpInItsRoleUntilItTakesOver(@TempDir Path storage)
            throws Exception {
        KAFKA.broker().createTopic("replicated-in", 2);
        KAFKA.broker().createTopic("replicated-out", 2);
        String shared = "streamsplit.flink.checkpointing.storage=" + storage.toUri();
        ConfigurableApplicationContext first = Words.start(KAFKA.bootstrapServers(), "replicated", shared);
        try (ConfigurableApplicationContext second = Words.start(KAFKA.bootstrapServers(), "replicated", shared)) {
            StreamSplitHealthIndicator firstHealth = first.getBean(StreamSplitHealthIndicator.class);
            StreamSplitHealthIndicator secondHealth = second.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health one = firstHealth.health();
                Health two = secondHealth.health();
                Health active = "active".equals(one.getDetails().get("role")) ? one : two;
                Health standby = active == one ? two : one;
                assertThat(active.getStatus()).isEqualTo(Status.UP);
                assertThat(active.getDetails()).containsEntry("status", "RUNNING");
                assertThat(standby.getStatus()).isEqualTo(Status.UP);
                assertThat(standby.getDetails())
                        .containsEntry("role", "standby")
                        .containsEntry("status", "STANDBY")
                        .containsEntry("activeInstance", active.getDetails().get("instance"));
                assertThat(standby.getDetails().get("reason").toString()).contains("takes over when that one stops");
            });
            boolean firstWasActive =
                    "active".equals(firstHealth.health().getDetails().get("role"));
            ConfigurableApplicationContext standbyApp = firstWasActive ? second : first;
            (firstWasActive ? first : second).close();
            StreamSplitHealthIndicator takenOver = standbyApp.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health health = takenOver.health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsEntry("role", "active").containsEntry("status", "RUNNING");
            });
        } finally {
            first.close();
        }
    }

    @Test
    void anotherApplicationWithTheSameJobNameIsToldApartAndRunsNothing(@TempDir Path storage) throws Exception {
        for (String name : new String[] {"orders", "billing"}) {
            KAFKA.broker().createTopic(name + "-in", 1);
            KAFKA.broker().createTopic(name + "-out", 1);
        }
        String sameJob = "streamsplit.flink.job-name=nightly";
        String shared = "streamsplit.flink.checkpointing.storage=" + storage.toUri();
        try (ConfigurableApplicationContext orders = Words.start(KAFKA.bootstrapServers(), "orders", sameJob, shared)) {
            StreamSplitHealthIndicator ordersHealth = orders.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60))
                    .until(() ->
                            "active".equals(ordersHealth.health().getDetails().get("role")));
            try (ConfigurableApplicationContext billing =
                    Words.start(KAFKA.bootstrapServers(), "billing", sameJob, shared)) {
                StreamSplitHealthIndicator health = billing.getBean(StreamSplitHealthIndicator.class);
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    Health read = health.health();
                    assertThat(read.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(read.getDetails().get("reason").toString())
                            .contains("application 'orders' runs a job of the same name", "streamsplit.flink.job-name");
                });
                assertThat(billing.getBean(io.streamsplit.boot.job.StreamSplitJob.class)
                                .submission()
                                .isDone())
                        .as("the other application's job never runs here")
                        .isFalse();
            }
        }
    }
}
