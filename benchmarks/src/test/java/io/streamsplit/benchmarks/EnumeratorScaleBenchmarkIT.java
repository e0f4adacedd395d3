package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The enumerator scale harness at 1k and 10k partitions, so it cannot rot. */
class EnumeratorScaleBenchmarkIT {

    @Test
    void assignsEverySplitAndReportsTheCheckpointStateSize() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<EnumeratorScaleBenchmark.Result> results =
                EnumeratorScaleBenchmark.run(10_000, 100, 8, 1, new PrintStream(report, true, StandardCharsets.UTF_8));
        assertThat(results)
                .extracting(EnumeratorScaleBenchmark.Result::partitions)
                .containsExactly(1_000, 10_000);
        // the state grows with the partitions it names: ten times the partitions, about ten times the bytes
        assertThat(results.get(1).stateBytes())
                .isBetween(9 * results.get(0).stateBytes(), 11 * results.get(0).stateBytes());
        // the official KafkaSource's layout: an assigned partition is written as a whole split, like a pending one
        assertThat(results.get(0).pendingStateBytes()).isEqualTo(results.get(0).stateBytes());
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("10,000 partitions: assigned in", "restored in");
    }
}
