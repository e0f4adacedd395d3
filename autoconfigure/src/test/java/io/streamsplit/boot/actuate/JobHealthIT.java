package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.failure.JobFailures;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Health follows the job: UP while it runs and checkpoints, DOWN with the cause once it failed for good.
 * Embedded, health reads the job in-process; what it reads is what Flink's REST API says of the same job.
 */
class JobHealthIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void runningJobIsUpAndAJobThatFailedForGoodIsDownWithItsCause() throws Exception {
        KAFKA.broker().createTopic("health-in", 1);
        KAFKA.broker().createTopic("health-out", 1);
        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "health",
                "streamsplit.flink.parallelism=1",
                "streamsplit.flink.restart.strategy=none")) {
            StreamSplitHealthIndicator indicator = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health health = indicator.health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails())
                        .containsEntry("status", "RUNNING")
                        .containsEntry("job", "health");
                assertThat(health.getDetails().get("lastCheckpoint").toString()).contains("completedAt");
            });
            String jobId = app.getBean(StreamSplitJob.class)
                    .submission()
                    .join()
                    .getJobID()
                    .toString();
            JobProgress progress = app.getBean(JobProgress.class);
            FlinkRestClient rest = app.getBean(FlinkRestClient.class);
            JobFailures failures = app.getBean(JobFailures.class);
            // checkpoints go on completing, and the REST API serves what it read up to web.refresh-interval
            // (3 s) ago: the in-process read is the fresher; once the REST API caught up, they agree
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                JobCheckpoints running = progress.read(jobId);
                JobCheckpoints runningOverRest = JobCheckpoints.read(rest, jobId, running.restarts(), failures);
                assertThat(running)
                        .usingRecursiveComparison()
                        .ignoringFields("lastCheckpointId", "lastCheckpointTime", "lastCheckpointDuration", "inFlight")
                        .isEqualTo(runningOverRest);
                assertThat(running.submittedAt()).isNotNull();
                assertThat(running.lastCheckpointId()).isGreaterThanOrEqualTo(runningOverRest.lastCheckpointId());
            });

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    java.util.Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                for (String value : List.of("fine", "bad-apple")) {
                    producer.send(new ProducerRecord<>("health-in", value)).get();
                }
            }
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health health = indicator.health();
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(health.getDetails()).containsEntry("status", "FAILED");
                assertThat(health.getDetails().get("reason").toString())
                        .contains("health-in")
                        .contains("not a word: bad-apple");
            });
            // Flink archives the failure into the job's exception history just after the job turned FAILED
            // (failure labels are enriched asynchronously): await it, then the job changes no more and both
            // views say the same, to the millisecond
            JobCheckpoints failed = await().atMost(Duration.ofSeconds(10))
                    .until(() -> progress.read(jobId), read -> read.failure() != null);
            assertThat(failed.failure()).contains("not a word: bad-apple");
            assertThat(failed.tasksNotRunning()).as("%s", failed).isNotNull();
            assertThat(progress.read(jobId)).isEqualTo(failed);
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(JobCheckpoints.read(rest, jobId, failed.restarts(), failures))
                            .isEqualTo(failed));
        }
    }
}
