package io.streamsplit.benchmarks.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class RecoveryTimelineTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long KILL = 1_000_000;

    @Test
    void phasesRunFromTheKillThroughTheFirstFailureAfterItToTheLastTaskRunningAndTheFirstOutput() {
        // a failure from before the kill (an earlier run's) does not count; the latest attempt's tasks do
        JsonNode exceptions = JSON.readTree("""
                {"exceptionHistory": {"entries": [
                  {"exceptionName": "org.apache.flink.util.FlinkException", "timestamp": %d,
                   "stacktrace": "org.apache.flink.util.FlinkException: second\\n\\tat x"},
                  {"exceptionName": "org.apache.flink.runtime.jobmaster.JobMasterException", "timestamp": %d,
                   "stacktrace": "org.apache.flink.runtime.jobmaster.JobMasterException: TaskManager gone\\n\\tat y"},
                  {"exceptionName": "old", "timestamp": %d, "stacktrace": "old"}
                ]}}
                """.formatted(KILL + 14_000, KILL + 12_000, KILL - 60_000));
        List<JsonNode> subtaskTimes = List.of(
                vertex(KILL + 13_000, KILL + 13_200, KILL + 13_600, KILL + 15_600),
                vertex(KILL + 13_100, KILL + 13_300, KILL + 13_700, KILL + 15_400));

        RecoveryTimeline timeline = RecoveryTimeline.of("starter", KILL, exceptions, subtaskTimes, KILL + 17_000, 1);

        assertThat(timeline.detect()).isEqualTo(12_000);
        assertThat(timeline.restart()).isEqualTo(1_000);
        assertThat(timeline.slots()).isEqualTo(300);
        assertThat(timeline.deploy()).isEqualTo(400);
        assertThat(timeline.init()).isEqualTo(1_900);
        assertThat(timeline.output()).isEqualTo(1_400);
        assertThat(timeline.total()).isEqualTo(17_000);
        assertThat(timeline.detect()
                        + timeline.restart()
                        + timeline.slots()
                        + timeline.deploy()
                        + timeline.init()
                        + timeline.output())
                .isEqualTo(timeline.total());
        assertThat(timeline.cause())
                .isEqualTo("org.apache.flink.runtime.jobmaster.JobMasterException: TaskManager gone");
    }

    @Test
    void aRecoveryTheClusterDidNotRecordIsAnErrorNotAZero() {
        JsonNode noFailure = JSON.readTree("{\"exceptionHistory\": {\"entries\": []}}");

        assertThatThrownBy(() -> RecoveryTimeline.of(
                        "hand-wired", KILL, noFailure, List.of(vertex(1, 2, 3, 4)), KILL + 5_000, 0))
                .hasMessageContaining("hand-wired: the cluster recorded no failure");
    }

    private static JsonNode vertex(long scheduled, long deploying, long initializing, long running) {
        return JSON.readTree("""
                {"subtasks": [{"subtask": 0, "timestamps": {"CREATED": %d, "SCHEDULED": %d, "DEPLOYING": %d,
                  "INITIALIZING": %d, "RUNNING": %d}}]}
                """.formatted(scheduled - 5, scheduled, deploying, initializing, running));
    }
}
