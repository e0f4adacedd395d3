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
                SourceThroughputBenchmark.Settings.parse("--records", "5000", "--runs", "2", "--partitions", "2",
                        "--aa", "1"),
                new PrintStream(report, true, StandardCharsets.UTF_8));

        for (SourceThroughputBenchmark.Reader reader : SourceThroughputBenchmark.Reader.values()) {
            assertThat(result.gross().get(reader)).as(reader.name()).hasSize(2).allSatisfy(v -> assertThat(v).isPositive());
        }
        assertThat(result.fixedCostMillis().get(SourceThroughputBenchmark.Reader.STREAMSPLIT)).isPositive();
        assertThat(result.firstRecordMillis().get(SourceThroughputBenchmark.Reader.STREAMSPLIT)).hasSize(2)
                .allSatisfy(ms -> assertThat(ms).isPositive());
        String text = report.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("streamsplit/official", "streamsplit/raw steady", "streamsplit/raw-tuned steady",
                "(median of rounds, lowest–highest round)", "run 2 A/A: streamsplit-again/streamsplit steady",
                "A/A: streamsplit-again/streamsplit ");
        // even rounds run the readers in reverse, so a drift within a round favours none of them
        assertThat(text.indexOf("run 1 RAW ")).isLessThan(text.indexOf("run 1 STREAMSPLIT_AGAIN"));
        assertThat(text.indexOf("run 2 STREAMSPLIT_AGAIN")).isLessThan(text.indexOf("run 2 RAW "));
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            assertThat(text).contains("cpu s: fetcher ", ", task ", ", jit ");
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

    @Test
    void theSecondStreamSplitRunJoinsOnlyForAnAaComparison() {
        assertThat(SourceThroughputBenchmark.Settings.parse("--records", "10").readers())
                .isEqualTo(SourceThroughputBenchmark.Reader.COMPARED)
                .doesNotContain(SourceThroughputBenchmark.Reader.STREAMSPLIT_AGAIN);
        assertThat(SourceThroughputBenchmark.Settings.parse("--aa", "1").readers())
                .endsWith(SourceThroughputBenchmark.Reader.STREAMSPLIT, SourceThroughputBenchmark.Reader.STREAMSPLIT_AGAIN);
    }
}
