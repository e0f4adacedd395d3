package io.streamsplit.benchmarks.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.benchmarks.pipeline.PipelineBenchmark.PipelineRun;
import io.streamsplit.benchmarks.pipeline.PipelineBenchmark.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tiny run of the whole-pipeline harness, one round: the starter's pipeline with tracing, and the
 * running-totals job from YAML and wired by hand, exactly once. The harness itself fails a run whose
 * output count is off (exactly-once variants), whose app did not trace as the variant says, or whose
 * output headers do not show it.
 */
class PipelineBenchmarkIT {

    @Test
    void measuresEachVariantAndChecksEachRunDidWhatItSays() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<PipelineRun> runs = PipelineBenchmark.run(
                Settings.small(
                        List.of(PipelineVariant.HAND_WIRED, PipelineVariant.STARTER, PipelineVariant.TRACED),
                        5_000,
                        Duration.ofSeconds(1)),
                new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(runs)
                .extracting(PipelineRun::variant)
                .containsExactly(PipelineVariant.HAND_WIRED, PipelineVariant.STARTER, PipelineVariant.TRACED);
        assertThat(runs)
                .as("a rate, or NaN where all output of this short run came in one commit; never 0 or less")
                .allSatisfy(run -> assertThat(run.figures().recordsPerSecond())
                        .satisfiesAnyOf(
                                rate -> assertThat(rate).isNaN(),
                                rate -> assertThat(rate).isPositive()));
        assertThat(runs.subList(0, 2))
                .as("exactly-once output is visible only after a checkpoint, so each run completed at least one")
                .allSatisfy(run -> assertThat(run.checkpointMillis()).isNotEmpty());
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("starter", "vs hand-wired");
        // a healthy app's whole life in its own JVM, up to its stop by SIGTERM, logs no WARN or ERROR line
        assertThat(Files.readAllLines(runs.get(1).figures().log()))
                .filteredOn(line -> SoakLog.LEVEL.matcher(line).find())
                .as("WARN and ERROR lines of the starter's run, shutdown included")
                .isEmpty();
    }

    @Test
    void measuresEndToEndLatencyAtAFixedRateOverEveryRecordSent() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<PipelineLatencyBenchmark.LatencyRun> runs = PipelineLatencyBenchmark.run(
                Settings.small(List.of(PipelineVariant.STARTER), 0, Duration.ofMillis(500)),
                200,
                Duration.ofSeconds(3),
                Duration.ofSeconds(1),
                new PrintStream(report, true, StandardCharsets.UTF_8));

        // the harness fails a run that lost results; exactly-once output waits for a checkpoint
        assertThat(runs).singleElement().satisfies(run -> {
            assertThat(run.count()).isBetween(350L, 450L);
            assertThat(run.p50()).isPositive().isLessThanOrEqualTo(run.p99());
            assertThat(run.p99()).isLessThanOrEqualTo(run.max());
        });
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("p99 vs starter");
    }
}
