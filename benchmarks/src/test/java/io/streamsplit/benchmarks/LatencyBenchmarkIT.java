package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A short latency run in the normal build: every record sent is received and measured by each reader. */
class LatencyBenchmarkIT {

    @Test
    void measuresEveryRecordAndReportsOrderedPercentiles() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        Map<LatencyBenchmark.Reader, List<LatencyBenchmark.Percentiles>> results =
                LatencyBenchmark.run(1_000, 2, 2, 1, 100, 1, new PrintStream(report, true, StandardCharsets.UTF_8));
        for (LatencyBenchmark.Reader reader : LatencyBenchmark.Reader.values()) {
            LatencyBenchmark.Percentiles p = results.get(reader).get(0);
            assertThat(p.count()).as(reader.name()).isEqualTo(2_000);
            assertThat(p.p50()).isPositive().isLessThanOrEqualTo(p.p99());
            assertThat(p.p99()).isLessThanOrEqualTo(p.p999());
            assertThat(p.p999()).isLessThanOrEqualTo(p.max());
        }
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("median STREAMSPLIT", "p99.9");
    }
}
