package io.streamsplit.boot.kafka.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Kafka → Kafka from YAML only, under injected failures: with exactly-once every id reaches the
 * output exactly once (read_committed) and every bad record reaches the dead-letter topic exactly
 * once; with at-least-once none is missing; an application restart on the same checkpoint
 * directory keeps exactly-once.
 */
class ExactlyOnceIT {

    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceIT.class);
    private static final int RECORDS = 100_000;
    private static final int BAD_EVERY = 10_000;
    private static final String FAILURES = "test.fail-after-records=15000,45000,80000";

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private IdsRun newRun(int partitions) {
        IdsRun run = new IdsRun(KAFKA.bootstrapServers());
        KAFKA.broker().createTopic(run.input, partitions);
        KAFKA.broker().createTopic(run.output, 3);
        KAFKA.broker().createTopic(run.deadLetters, 1);
        return run;
    }

    private static void awaitAllFailuresFired(IdsRun run) {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(FailureInjector.fired(run.name))
                        .as("injected failures that fired")
                        .isEqualTo(4));
    }

    private static Map<String, Integer> expectedIds(int count, int badEvery) {
        return IntStream.range(0, count)
                .filter(i -> badEvery == 0 || i % badEvery != badEvery - 1)
                .boxed()
                .collect(Collectors.toMap(i -> "id-" + i, i -> 1));
    }

    @Test
    void exactlyOnceUnderFourInjectedFailuresIncludingOneAfterACheckpointCompleted() throws Exception {
        IdsRun run = newRun(4);
        run.write(0, RECORDS, BAD_EVERY);
        long start = System.nanoTime();
        try (ConfigurableApplicationContext app = run.start("exactly-once", FAILURES, "test.fail-on-checkpoint=4")) {
            run.awaitDistinct(run.output, RECORDS - RECORDS / BAD_EVERY, Duration.ofMinutes(3));
            LOG.info(
                    "exactly-once: {} records through 4 injected failures in {} ms",
                    RECORDS,
                    Duration.ofNanos(System.nanoTime() - start).toMillis());
            // the failure after checkpoint 4 can come after the last record got through (a fast run):
            // wait for it, then the output must stay exact across the recovery that follows
            awaitAllFailuresFired(run);
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertThat(run.committed(run.output)).isEqualTo(expectedIds(RECORDS, BAD_EVERY)));
            Map<String, Integer> deadLetters = run.committed(run.deadLetters);
            assertThat(deadLetters).hasSize(RECORDS / BAD_EVERY).allSatisfy((value, count) -> {
                assertThat(value).startsWith("bad-");
                assertThat(count).as(value).isEqualTo(1);
            });
            // four recoveries in a row left no transaction open (FLINK-40626 / FLINK-40585: a superseded one
            // holds read_committed readers at its first offset until it times out): with the input drained,
            // every output partition becomes fully visible within a few checkpoints and none is ongoing
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                assertThat(run.ongoingTransactions())
                        .as("transactions still open")
                        .isEmpty();
                assertThat(run.invisibleRecords(run.output, run.deadLetters))
                        .as("records written but not visible to read_committed readers, by partition")
                        .isEmpty();
            });
        }
    }

    /**
     * FLINK-40689: with Kafka's transaction protocol 2 the producer epoch goes up at every commit, and where a
     * sink reuses its transactional ids (Flink's POOLING naming) an id reaches the rollover at epoch 32767
     * after about nine hours of 1 s checkpoints, and recovering a pending commit across it fails. Our sink runs
     * with the connector's default naming, INCREMENTING: a new id per checkpoint and writer, so no id's epoch
     * grows with the job's age. Seen on the broker: many ids, each with a small epoch.
     */
    @Test
    void everyCheckpointTakesAFreshTransactionalIdSoNoEpochGrowsTowardsTheRollover() throws Exception {
        IdsRun run = newRun(2);
        try (ConfigurableApplicationContext app = run.start("exactly-once")) {
            run.writeWhileRunning(0, 4_000, 50).get(1, java.util.concurrent.TimeUnit.MINUTES);
            run.awaitDistinct(run.output, 4_000, Duration.ofMinutes(2));
            Map<String, Integer> epochs = run.transactionEpochs();
            LOG.info("transactional ids of the run and their producer epochs: {}", epochs);
            assertThat(epochs)
                    .as("a transactional id per checkpoint and writer")
                    .hasSizeGreaterThanOrEqualTo(10);
            assertThat(epochs.values())
                    .as("no id used for more than a few transactions")
                    .allSatisfy(epoch -> assertThat(epoch).isLessThan(10));
        }
    }

    @Test
    void atLeastOnceLosesNothingUnderTheSameFailures() throws Exception {
        IdsRun run = newRun(4);
        run.write(0, RECORDS, BAD_EVERY);
        long start = System.nanoTime();
        try (ConfigurableApplicationContext app = run.start("at-least-once", FAILURES, "test.fail-on-checkpoint=4")) {
            run.awaitDistinct(run.output, RECORDS - RECORDS / BAD_EVERY, Duration.ofMinutes(3));
            long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
            Map<String, Integer> output = run.committed(run.output);
            long duplicates =
                    output.values().stream().mapToLong(count -> count - 1).sum();
            LOG.info(
                    "at-least-once: {} records through 4 injected failures in {} ms, {} duplicates",
                    RECORDS,
                    elapsed,
                    duplicates);
            awaitAllFailuresFired(run);
            assertThat(output.keySet())
                    .isEqualTo(expectedIds(RECORDS, BAD_EVERY).keySet());
            assertThat(run.committed(run.deadLetters).keySet()).hasSize(RECORDS / BAD_EVERY);
        }
    }

    /**
     * Also the log tells the truth: no "most likely signals data loss" ERROR for the restored checkpoint's
     * transactions. Whether the first run committed its last checkpoint's transactions before it was
     * closed depends on timing (both cases are correct); RestoredTransactionsCommitterIT pins each case
     * against the broker's transaction coordinator.
     */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void applicationRestartOnTheSameCheckpointDirectoryKeepsExactlyOnce(@TempDir Path checkpoints, CapturedOutput log)
            throws Exception {
        IdsRun run = newRun(3);
        int records = 30_000;
        String storage = "streamsplit.flink.checkpointing.storage=" + checkpoints.toUri();
        int half = records / 2;
        java.util.concurrent.CompletableFuture<Void> firstHalf;
        try (ConfigurableApplicationContext first = run.start("exactly-once", storage)) {
            firstHalf = run.writeWhileRunning(0, half, 250);
            run.awaitDistinct(run.output, 3_000, Duration.ofMinutes(2));
        }
        int afterFirst = run.committed(run.output).size();
        try (ConfigurableApplicationContext second = run.start("exactly-once", storage)) {
            // written only now, so the second run has ids of its own to read whatever the first one got to
            java.util.concurrent.CompletableFuture<Void> secondHalf = run.writeWhileRunning(half, records, 250);
            firstHalf.get(2, java.util.concurrent.TimeUnit.MINUTES);
            secondHalf.get(2, java.util.concurrent.TimeUnit.MINUTES);
            run.awaitDistinct(run.output, records, Duration.ofMinutes(2));
            LOG.info("app restart: {} ids committed by the first run, the rest by the second", afterFirst);
            assertThat(run.committed(run.output)).isEqualTo(expectedIds(records, 0));
            assertThat(log.getOut()).doesNotContain("because its producer is already fenced");
        }
    }
}
