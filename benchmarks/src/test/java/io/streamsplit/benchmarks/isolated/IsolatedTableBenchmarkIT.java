package io.streamsplit.benchmarks.isolated;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The separate-JVM SQL harness: a broker JVM, one reader JVM per connector, the ratios of the round. */
class IsolatedTableBenchmarkIT {

    @Test
    void aTinyRunReadsTheTopicInAJvmPerConnectorAndPrintsTheRatios() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<double[]> ratios = IsolatedTableBenchmark.run(
                1_000, 1, 2, 1, "raw", "512m", 0, new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(ratios).hasSize(1);
        assertThat(Arrays.stream(ratios.get(0)).boxed().toList())
                .hasSize(4)
                .allSatisfy(ratio -> assertThat(ratio).isPositive());
        assertThat(report.toString(StandardCharsets.UTF_8))
                .contains("a JVM per run: 1,000 records as raw, 2 partitions, parallelism 1")
                .contains("streamsplit-kafka / kafka, job records/s")
                .contains("streamsplit-kafka / kafka, peak RSS");
    }
}
