package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A tiny run of the throttle harness in the normal build, so it cannot rot. */
class ThrottleBenchmarkIT {

    @Test
    void tinyRunReadsEveryRecordAtEachLimitAndPrintsRatios() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<ThrottleBenchmark.Row> rows =
                ThrottleBenchmark.run(2, 2, 1, new int[] {500}, new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.records()).isEqualTo(1000);
            assertThat(row.steady()).isPositive();
        });
        assertThat(report.toString(StandardCharsets.UTF_8))
                .contains("limit/s", "steady×", "task cpu s/s", "       500      1000");
    }
}
