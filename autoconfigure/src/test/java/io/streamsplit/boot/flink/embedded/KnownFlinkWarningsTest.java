package io.streamsplit.boot.flink.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import org.apache.flink.runtime.checkpoint.CheckpointException;
import org.apache.flink.runtime.checkpoint.CheckpointFailureReason;
import org.junit.jupiter.api.Test;

/** Which of Flink's WARN lines the embedded cluster keeps out of the application's log, and which it keeps. */
class KnownFlinkWarningsTest {

    private static final String FAILED_CHECKPOINT =
            "Failed to trigger or complete checkpoint {} for job {}. ({} consecutive failed attempts so far)";

    private final KnownFlinkWarnings filter = new KnownFlinkWarnings();
    private final Logger checkpoints =
            new LoggerContext().getLogger("org.apache.flink.runtime.checkpoint.CheckpointFailureManager");

    @Test
    void aCheckpointAbortedBecauseTheJobStopsOrRestartsIsNoWarning() {
        assertThat(failedCheckpoint(Level.WARN, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND))
                .isEqualTo(FilterReply.DENY);
    }

    @Test
    void aCheckpointThatFailedForAnyOtherReasonStillWarns() {
        assertThat(failedCheckpoint(Level.WARN, CheckpointFailureReason.CHECKPOINT_EXPIRED))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(failedCheckpoint(Level.WARN, CheckpointFailureReason.CHECKPOINT_DECLINED))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(filter.decide(null, checkpoints, Level.WARN, FAILED_CHECKPOINT, new Object[] {3L, "job", 0}, null))
                .as("without an exception")
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(filter.decide(
                        null,
                        new LoggerContext().getLogger("com.example.Mine"),
                        Level.WARN,
                        FAILED_CHECKPOINT,
                        new Object[] {
                            3L,
                            "job",
                            0,
                            new CheckpointException(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND)
                        },
                        null))
                .as("the same words from another logger")
                .isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void onlyWarningsAreFiltered() {
        assertThat(failedCheckpoint(Level.ERROR, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    private FilterReply failedCheckpoint(Level level, CheckpointFailureReason reason) {
        return filter.decide(
                null,
                checkpoints,
                level,
                FAILED_CHECKPOINT,
                new Object[] {3L, "eee1075f862598dc7c9ff44205936add", 0, new CheckpointException(reason)},
                null);
    }
}
