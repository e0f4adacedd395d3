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

    @Test
    void threeStartsLeaveTheConfiguredHistoryAndEveryWordOnce() throws Exception {
        KAFKA.broker().createTopic("history-in", 2);
        KAFKA.broker().createTopic("history-out", 1);
        String[] settings = {
            "streamsplit.flink.checkpointing.storage=" + storage.toUri(),
            "streamsplit.flink.checkpointing.history.max-count=1",
            "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once"
        };
        List<RetainedState> kept = List.of();
        for (int run = 1; run <= 3; run++) {
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
        assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "history-out"))
                .containsExactly("WORD1", "WORD2", "WORD3");
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
