package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** A tiny run of the source comparison in the normal build, so the harness cannot rot. */
class SourceThroughputBenchmarkIT {

    @Test
    void tinyRunReadsEverythingWithEachReaderAndReportsRatios() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        SourceThroughputBenchmark.Result result = SourceThroughputBenchmark.run(
                SourceThroughputBenchmark.Settings.parse("--records", "5000", "--runs", "1", "--partitions", "2"),
                new PrintStream(report, true, StandardCharsets.UTF_8));

        for (SourceThroughputBenchmark.Reader reader : SourceThroughputBenchmark.Reader.values()) {
            assertThat(result.gross().get(reader)).as(reader.name()).hasSize(1).allSatisfy(v -> assertThat(v).isPositive());
        }
        assertThat(result.fixedCostMillis().get(SourceThroughputBenchmark.Reader.STREAMSPLIT)).isPositive();
        assertThat(result.firstRecordMillis().get(SourceThroughputBenchmark.Reader.STREAMSPLIT)).hasSize(1)
                .allSatisfy(ms -> assertThat(ms).isPositive());
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("streamsplit/official", "streamsplit/raw steady",
                "streamsplit/raw-tuned steady");
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            assertThat(report.toString(StandardCharsets.UTF_8)).contains("cpu s: fetcher ", ", task ", ", jit ");
        }
        for (SourceThroughputBenchmark.Reader reader : SourceThroughputBenchmark.Reader.values()) {
            // steady state excludes job start, so it is at least the whole-run rate
            assertThat(result.steady().get(reader).get(0)).as(reader.name())
                    .isGreaterThanOrEqualTo(result.gross().get(reader).get(0));
        }
    }

    @Test
    void officialSourceRunsWithKafkaDefaultsUnlessAskedForStreamSplitsFetchSettings() {
        assertThat(SourceThroughputBenchmark.Settings.parse("--records", "10").officialTuned()).isFalse();
        assertThat(SourceThroughputBenchmark.Settings.parse("--official-tuned", "1").officialTuned()).isTrue();
    }
}
