package io.streamsplit.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.SourceState;
import io.streamsplit.boot.test.app.KitApplication;
import io.streamsplit.boot.test.app.Word;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;

/**
 * Each helper of the kit against the kit's own application, one shared context: a real broker, the
 * job on the MiniCluster. Tests use their own values (a random tag), as tests sharing a context must.
 */
@StreamSplitTest(classes = KitApplication.class, partitions = 3)
@ActiveProfiles("kit")
class PipelineTesterIT {

    @Autowired
    PipelineTester pipeline;

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void theJobRunsBeforeTheFirstTestAndReadsEveryPartition() {
        assertThat(pipeline.describeJob()).contains("Job 'kit-app'").contains("is RUNNING");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            SourceState words = pipeline.splits("words");
            assertThat(words.assignedSplits()).isEqualTo(3);
            assertThat(words.splits()).hasSize(3);
        });
    }

    @Test
    void sentJsonComesOutTransformedOnceCommitted() {
        pipeline.sendJson("words", null, new Word("hello-" + tag));
        pipeline.send("words", "k", "{\"text\":\"world-" + tag + "\"}");

        List<ReceivedRecord> upper =
                pipeline.awaitRecords("upper", 2, r -> r.value().endsWith(tag.toUpperCase()));

        assertThat(upper)
                .extracting(ReceivedRecord::value)
                .containsExactlyInAnyOrder("HELLO-" + tag.toUpperCase(), "WORLD-" + tag.toUpperCase());
    }

    @Test
    void aMalformedRecordIsADeadLetterWithItsErrorDecoded() {
        pipeline.send("words", tag, "not json " + tag);

        DeadLetter dead = pipeline.awaitDeadLetters("words", 1).stream()
                .filter(d -> ("not json " + tag).equals(d.value()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no dead letter for this test's record"));

        assertThat(dead.source()).isEqualTo("words");
        assertThat(dead.originalTopic()).isEqualTo("words");
        assertThat(dead.originalPartition()).isBetween(0, 2);
        assertThat(dead.originalOffset()).isNotNegative();
        assertThat(dead.exceptionClass()).isNotBlank();
        assertThat(dead.exceptionMessage()).isNotBlank();
        assertThat(dead.record().key()).isEqualTo(tag);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(pipeline.splits("words").recordsDeadLettered())
                        .isPositive());
    }

    @Test
    void advanceTimeClosesEventTimeWindowsOnEveryPartition() {
        // a 10-second window that starts now: later than any watermark an earlier run of this context set
        Instant window = Instant.ofEpochMilli(System.currentTimeMillis() / 10_000 * 10_000);
        pipeline.send("clicks", null, "a-" + tag, window.plusSeconds(1));
        pipeline.send("clicks", null, "a-" + tag, window.plusSeconds(2));
        pipeline.send("clicks", null, "b-" + tag, window.plusSeconds(3));

        pipeline.advanceTime("clicks", window.plusSeconds(20), "tick-" + tag);

        List<ReceivedRecord> counts = pipeline.awaitRecords(
                "click-counts", 2, r -> r.value().contains(tag) && !r.value().startsWith("tick"));
        assertThat(counts)
                .extracting(ReceivedRecord::value)
                .containsExactlyInAnyOrder(
                        "a-" + tag + "@" + window.toEpochMilli() + "=2",
                        "b-" + tag + "@" + window.toEpochMilli() + "=1");
    }

    @Test
    void checkpointsAreAwaitedOneAfterAnother() {
        long first = pipeline.awaitCheckpoint();
        long second = pipeline.awaitCheckpoint();
        assertThat(second).isGreaterThan(first);
    }

    @Test
    void aCrashedTaskManagerRestartsFromTheLastCheckpointWithoutLossOrDuplicates() {
        for (int i = 0; i < 20; i++) {
            pipeline.sendJson("words", null, new Word("before-" + i + "-" + tag));
        }
        pipeline.awaitRecords("upper", 20, r -> r.value().endsWith(tag.toUpperCase()));
        long checkpoint = pipeline.awaitCheckpoint();

        long restored = pipeline.injectFailure();

        assertThat(restored).isGreaterThanOrEqualTo(checkpoint);
        for (int i = 0; i < 20; i++) {
            pipeline.sendJson("words", null, new Word("after-" + i + "-" + tag));
        }
        List<String> values = pipeline.awaitRecords("upper", 40, r -> r.value().endsWith(tag.toUpperCase())).stream()
                .map(ReceivedRecord::value)
                .toList();
        pipeline.awaitCheckpoint(); // anything replayed after the restart would be committed by now
        List<String> settled = pipeline.read("upper").stream()
                .map(ReceivedRecord::value)
                .filter(v -> v.endsWith(tag.toUpperCase()))
                .toList();
        assertThat(settled).hasSize(40).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(values);
    }

    @Test
    void sendingToATopicTheApplicationDoesNotHaveSaysHowToAddIt() {
        assertThatThrownBy(() -> pipeline.send("wrods", null, "x"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Topic 'wrods' does not exist")
                .hasMessageContaining("words")
                .hasMessageContaining("@StreamSplitTest(topics = \"wrods\")");
    }

    @Test
    void aTimeoutSaysWhatArrivedAndHowTheJobIsDoing() {
        pipeline.sendJson("words", null, new Word("only-" + tag));
        pipeline.awaitRecords("upper", 1, r -> r.value().endsWith(tag.toUpperCase()));

        assertThatThrownBy(() -> pipeline.awaitRecords(
                        "upper", 2, r -> r.value().endsWith(tag.toUpperCase()), Duration.ofSeconds(1)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected 2 records in topic 'upper' within 1 s, 1 arrived")
                .hasMessageContaining("value=ONLY-" + tag.toUpperCase())
                .hasMessageContaining("Job 'kit-app'")
                .hasMessageContaining("is RUNNING")
                .hasMessageContaining("Source 'words': ");
    }

    @Test
    void deadLettersOfASourceWithoutThemIsAClearMistake() {
        assertThatThrownBy(() -> pipeline.deadLetters("clicks"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Source 'clicks' has no dead-letter topic");
        assertThatThrownBy(() -> pipeline.deadLetters("wrods"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("No source 'wrods'")
                .hasMessageContaining("[words, clicks]");
    }
}
