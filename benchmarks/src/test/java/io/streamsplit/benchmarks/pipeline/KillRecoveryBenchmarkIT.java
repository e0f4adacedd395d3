package io.streamsplit.benchmarks.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.benchmarks.pipeline.KillRecoveryBenchmark.KillRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CI-sized run of recovery after {@code kill -9}, side by side: the exactly-once running totals as a
 * StreamSplit app and as the Kafka Streams app, each killed with SIGKILL under load and started again. The
 * harness fails a run where a payment is not answered or is answered twice; this checks that both sides
 * came back with output for payments sent after the kill. Kafka Streams waits for the killed member's
 * session to expire before it takes its partitions back; the run shortens that session to the broker's
 * minimum (6 s, Kafka's default is 45 s) to stay CI-sized, which changes when it recovers, not what.
 */
class KillRecoveryBenchmarkIT {

    @Test
    void bothSidesAnswerEveryPaymentOnceAfterTheirProcessIsKilled() throws Exception {
        PipelineBenchmark.Settings settings = PipelineBenchmark.Settings.of(PipelineBenchmark.options(
                Map.of(),
                "--variants",
                "totals,kstreams-totals",
                "--rounds",
                "1",
                "--partitions",
                "2",
                "--parallelism",
                "1",
                "--checkpoint",
                "1s",
                "--accounts",
                "100",
                "--jvm",
                "-Xmx512m",
                "--app-args",
                "--spring.kafka.streams.properties.session.timeout.ms=6000"));
        ByteArrayOutputStream report = new ByteArrayOutputStream();

        List<KillRun> runs =
                KillRecoveryBenchmark.run(settings, 500, new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(runs).extracting(KillRun::variant).containsExactly("totals", "kstreams-totals");
        assertThat(runs).allSatisfy(run -> {
            assertThat(run.recoverySeconds()).as(run.variant()).isPositive();
            assertThat(run.answered()).as(run.variant()).isEqualTo(run.sent()).isPositive();
            assertThat(run.duplicates()).as(run.variant()).isZero();
        });
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("totals vs kstreams-totals: recovery");
    }
}
