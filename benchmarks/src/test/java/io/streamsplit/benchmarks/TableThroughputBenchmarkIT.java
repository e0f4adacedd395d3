package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL harness runs both connectors over the whole topic and prints each round and the ratio. */
class TableThroughputBenchmarkIT {

    @Test
    void aTinyRunReadsTheTopicThroughBothTablesAndPrintsTheRatio() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<TableThroughputBenchmark.Round> rounds = TableThroughputBenchmark.run(
                2_000, 2, 2, 1, "json", 0, new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(rounds).hasSize(2).allSatisfy(round -> {
            assertThat(round.streamsplit()).isPositive();
            assertThat(round.official()).isPositive();
        });
        assertThat(report.toString(StandardCharsets.UTF_8))
                .contains(
                        "SQL SELECT * into blackhole: 2,000 records as json, 2 partitions, parallelism 1, 0 warm-up round(s)")
                .contains("streamsplit-kafka / kafka: ");
    }
}
