package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session cluster with Flink's ZooKeeper high availability (a real ZooKeeper server in its own JVM): its
 * JobManager dies under a running exactly-once job ({@code kill -9}) and is started again. Flink recovers the job
 * itself, the same run, from its HA store and latest checkpoint; the application, its own JVM, waits for that
 * instead of putting the job back: one submission in its log, one run on the cluster, every id once downstream.
 */
class JobManagerHighAvailabilityIT {

    private static final Logger LOG = LoggerFactory.getLogger(JobManagerHighAvailabilityIT.class);
    private static final int IDS = 3_000;
    private static final int RATE = 500;
    private static final Duration START = Duration.ofSeconds(120);
    private static final String JOB = "jm-ha";

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static StandaloneFlinkCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = SharedFlinkCluster.forJobManagerRestarts(StandaloneFlinkCluster.builder())
                .zooKeeperHighAvailability()
                .start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aKilledJobManagerRecoversTheSameRunAndTheApplicationDoesNotSubmitAnother() throws Exception {
        String input = JOB + "-in";
        String output = JOB + "-out";
        KAFKA.broker().createTopic(input, 2);
        KAFKA.broker().createTopic(output, 2);
        Path work = Path.of("target", "tmp", JOB).toAbsolutePath();
        org.springframework.util.FileSystemUtils.deleteRecursively(work.toFile());
        try (IdTraffic traffic = new IdTraffic(KAFKA.bootstrapServers(), input, output, 2);
                AppProcess app = AppProcess.start("ha", work, ClusterIdsApplication.class, args(work))) {
            await().atMost(START).until(() -> app.log().contains(ClusterLifecycleIT.SUBMITTED));
            String run = ActiveRuns.one(cluster, JOB, START);
            CompletableFuture<Void> sending = traffic.send(0, IDS, RATE);
            await().atMost(START).until(() -> traffic.sent() >= IDS / 3);

            cluster.killJobManager();
            Thread.sleep(2_000);
            cluster.startJobManager();
            long answered = System.nanoTime();
            await().atMost(START).until(() -> run.equals(ActiveRuns.running(cluster, JOB)));
            LOG.info(
                    "Flink recovered run {} {} s after the new JobManager answered",
                    run,
                    String.format("%.1f", (System.nanoTime() - answered) / 1e9));

            sending.get(2, TimeUnit.MINUTES);
            IdTraffic.Tally tally = traffic.awaitAll(IDS, Duration.ofSeconds(120));
            assertThat(tally.exact()).as("every id exactly once: %s", tally).isTrue();
            assertThat(ActiveRuns.of(cluster, JOB))
                    .as("one run: the recovered one")
                    .containsExactly(run);
            assertThat(app.log().lines().filter(line -> line.contains(ClusterLifecycleIT.SUBMITTED)))
                    .as("the application submitted the job once")
                    .hasSize(1);
            assertThat(app.log()).doesNotContain("was no longer on");
        }
    }

    private static List<String> args(Path work) {
        List<String> args = ClusterIdsApplication.remoteArgs(JOB, KAFKA.bootstrapServers(), cluster.restPort(), work);
        args.add("--spring.main.web-application-type=none");
        return args;
    }
}
