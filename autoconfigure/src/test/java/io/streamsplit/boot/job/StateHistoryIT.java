package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.boot.job.state.RetainedState;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Restarts of an embedded application do not pile up state on disk: every run leaves its last checkpoint and its
 * stop's savepoint (two states a run), and the next start keeps only {@code checkpointing.history.max-count} of them — the newest
 * first, the one it resumes from among them — and lists them in {@code /actuator/streamsplit}. Nothing is read
 * twice across the restarts.
 */
class StateHistoryIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @TempDir
    Path storage;

    /** CI starts the application 3 times; the 20: {@code -Dhistory.starts=20}. */
    private static final int STARTS = Integer.getInteger("history.starts", 3);

    @Test
    void restartsLeaveTheConfiguredHistoryAndEveryWordOnce() throws Exception {
        KAFKA.broker().createTopic("history-in", 2);
        KAFKA.broker().createTopic("history-out", 1);
        String[] settings = {
            "streamsplit.flink.checkpointing.storage=" + storage.toUri(),
            "streamsplit.flink.checkpointing.history.max-count=1",
            "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once"
        };
        List<RetainedState> kept = List.of();
        List<String> words = new java.util.ArrayList<>();
        for (int run = 1; run <= STARTS; run++) {
            long startedAt = System.currentTimeMillis();
            try (ConfigurableApplicationContext app = Words.start(KAFKA.bootstrapServers(), "history", settings)) {
                StreamSplitJob job = app.getBean(StreamSplitJob.class);
                job.submission().get(60, java.util.concurrent.TimeUnit.SECONDS); // submitted: the history was pruned
                kept = job.stateHistory();
                if (run > 1) {
                    assertThat(statesOnDisk(startedAt))
                            .as("states before run %d", run)
                            .hasSizeLessThanOrEqualTo(1);
                }
                String word = "word" + run;
                words.add(word.toUpperCase(Locale.ROOT));
                KafkaTopics.write(KAFKA.bootstrapServers(), "history-in", List.of(word));
                await().atMost(Duration.ofSeconds(60))
                        .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "history-out"))
                                .contains(word.toUpperCase(Locale.ROOT)));
            }
        }
        assertThat(kept).hasSize(1);
        assertThat(kept.get(0).kind())
                .as("the newest: the last stop's savepoint")
                .isEqualTo(RetainedState.Kind.SAVEPOINT);
        assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "history-out")).containsExactlyElementsOf(words);
    }

    /**
     * With {@code savepoint-interval}, the running job gets a savepoint every interval, and each is followed by the
     * prune: however long it runs, its earlier states stay within {@code max-count}; the next start resumes from the
     * newest, nothing read twice.
     */
    @Test
    void periodicSavepointsAreTakenAndPrunedWhileTheJobRuns() throws Exception {
        KAFKA.broker().createTopic("periodic-in", 2);
        KAFKA.broker().createTopic("periodic-out", 1);
        String[] settings = {
            "streamsplit.flink.checkpointing.storage=" + storage.toUri(),
            "streamsplit.flink.checkpointing.history.max-count=2",
            "streamsplit.flink.checkpointing.history.savepoint-interval=1s",
            "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once"
        };
        try (ConfigurableApplicationContext app = Words.start(KAFKA.bootstrapServers(), "periodic", settings)) {
            StreamSplitJob job = app.getBean(StreamSplitJob.class);
            String live = job.submission()
                    .get(60, java.util.concurrent.TimeUnit.SECONDS)
                    .getJobID()
                    .toHexString();
            io.streamsplit.boot.job.state.PeriodicSavepoints periodic =
                    app.getBean(io.streamsplit.boot.job.state.PeriodicSavepoints.class);
            KafkaTopics.write(KAFKA.bootstrapServers(), "periodic-in", List.of("one"));
            await().atMost(Duration.ofSeconds(60)).until(() -> periodic.taken() >= 4);
            assertThat(statesOnDisk(Long.MAX_VALUE).stream()
                            .filter(path -> !path.toString().contains(live))
                            .toList())
                    .as("savepoints on disk after %d periodic ones", periodic.taken())
                    .hasSizeLessThanOrEqualTo(2)
                    .isNotEmpty();
        }
        try (ConfigurableApplicationContext app = Words.start(KAFKA.bootstrapServers(), "periodic", settings)) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "periodic-in", List.of("two"));
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "periodic-out"))
                            .contains("TWO"));
        }
        assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "periodic-out")).containsExactly("ONE", "TWO");
    }

    /** Complete checkpoints and savepoints in storage written before {@code beforeMillis}. */
    private List<Path> statesOnDisk(long beforeMillis) throws IOException {
        try (Stream<Path> files = Files.walk(storage)) {
            return files.filter(p -> p.getFileName().toString().equals("_metadata"))
                    .filter(p -> {
                        try {
                            return Files.getLastModifiedTime(p).toMillis() < beforeMillis;
                        } catch (IOException e) {
                            return true;
                        }
                    })
                    .toList();
        }
    }
}
