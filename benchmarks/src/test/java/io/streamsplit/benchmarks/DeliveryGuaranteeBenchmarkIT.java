package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

/** A tiny run of the harness in the normal build, so it cannot rot; the figures come from the full run. */
class DeliveryGuaranteeBenchmarkIT {

    @Test
    void tinyRunCopiesEveryRecordWithBothGuaranteesAndReportsRatios() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<DeliveryGuaranteeBenchmark.Run> runs = DeliveryGuaranteeBenchmark.run(
                DeliveryGuaranteeBenchmark.Settings.parse(
                        "--records", "2000", "--runs", "1", "--partitions", "2", "--checkpoint-interval-ms", "200"),
                new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(runs)
                .extracting(DeliveryGuaranteeBenchmark.Run::guarantee)
                .containsExactly(DeliveryGuarantee.AT_LEAST_ONCE, DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(runs).allSatisfy(run -> assertThat(run.records()).isEqualTo(2000));
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("exactly-once/at-least-once per pair");
    }

    @Test
    void medianOfEvenAndOddCounts() {
        assertThat(BenchmarkSupport.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(BenchmarkSupport.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
    }
}
