package io.streamsplit.benchmarks.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.benchmarks.pipeline.PipelineBenchmark.PipelineRun;
import io.streamsplit.benchmarks.pipeline.PipelineBenchmark.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CI-sized run of the Kafka Streams comparison: each topology once as a StreamSplit app and once as
 * the spring-kafka Kafka Streams app (the exactly-once running total on Kafka Streams 4.4 too), on orders of which one in a hundred is malformed. It checks what the
 * full run's figures rest on, not speed: the harness itself fails a run whose exactly-once output is not
 * one record per good order (per account and window with a good order for the windowed topology, whose
 * windows must count every good order once), or whose dead-letter topic does not hold every malformed one;
 * each run has a
 * time to its first output and an idle figure read from its threads.
 */
class KafkaStreamsSideBySideIT {

    private static final List<PipelineVariant> VARIANTS = List.of(
            PipelineVariant.TRANSFORM,
            PipelineVariant.KSTREAMS_TRANSFORM,
            PipelineVariant.TOTALS,
            PipelineVariant.KSTREAMS_TOTALS,
            PipelineVariant.WINDOWS,
            PipelineVariant.KSTREAMS_WINDOWS,
            PipelineVariant.KSTREAMS44_TOTALS);

    @Test
    void eachTopologyRunsBothWaysWithEveryGoodOrderOutAndEveryBadOneDeadLettered() throws Exception {
        Settings settings = Settings.small(
                VARIANTS, 3_000, Duration.ofSeconds(1), new PipelineProcess.Idle(Duration.ZERO, Duration.ofSeconds(2)));
        ByteArrayOutputStream report = new ByteArrayOutputStream();

        List<PipelineRun> runs = PipelineBenchmark.run(settings, new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(runs).extracting(PipelineRun::variant).containsExactlyElementsOf(VARIANTS);
        assertThat(runs).allSatisfy(run -> {
            assertThat(run.figures().firstOutputSeconds())
                    .as(run.arm() + " first output")
                    .isPositive();
            assertThat(run.figures().idleCores()).as(run.arm() + " idle").isGreaterThanOrEqualTo(0);
            assertThat(run.figures().idleCoresByThread())
                    .as(run.arm() + " idle by thread")
                    .isNotNull();
        });
        assertThat(report.toString(StandardCharsets.UTF_8))
                .contains(
                        "transform vs kstreams-transform",
                        "totals vs kstreams-totals",
                        "windows vs kstreams-windows",
                        "totals vs kstreams44-totals");
    }
}
