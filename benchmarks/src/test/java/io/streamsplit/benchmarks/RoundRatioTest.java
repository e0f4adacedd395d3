package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-round ratios and the target check that tells a miss beyond the noise from one inside it. */
class RoundRatioTest {

    @Test
    void ratioIsTakenPerRoundAndSummarizedByMedianLowestAndHighestRound() {
        Map<Reader, List<Double>> perSecond = Map.of(
                Reader.STREAMSPLIT, List.of(110.0, 90.0, 120.0, 100.0, 130.0),
                Reader.OFFICIAL, List.of(100.0, 100.0, 100.0, 125.0, 100.0));

        RoundRatio ratio = RoundRatio.of(perSecond, Reader.STREAMSPLIT, Reader.OFFICIAL);

        // per round 1.10, 0.90, 1.20, 0.80, 1.30: not the ratio of the medians (110 / 100)
        assertThat(ratio.median()).isCloseTo(1.10, offset(1e-9));
        assertThat(ratio.low()).isCloseTo(0.80, offset(1e-9));
        assertThat(ratio.high()).isCloseTo(1.30, offset(1e-9));
        assertThat(ratio.rounds()).isEqualTo(5);
        assertThat(ratio).hasToString("1.10 (0.80–1.30)");
        assertThat(ratio.clearlyBelow(1.0))
                .as("one round at 0.80 does not make it a miss")
                .isFalse();
        assertThat(ratio.clearlyBelow(1.35)).isTrue();
    }

    @Test
    void targetReportCountsMetShapesAndMarksOnlyMissesWhoseEveryRoundWasBelow() {
        List<SourceMatrixBenchmark.Row> rows = List.of(
                row(10, 64, new RoundRatio(1.05, 0.97, 1.15, 5)),
                row(100, 4, new RoundRatio(1.20, 1.10, 1.30, 5)),
                row(1024, 16, new RoundRatio(0.97, 0.91, 1.04, 5)),
                row(1024, 64, new RoundRatio(0.92, 0.88, 0.99, 5)));

        String report = SourceMatrixBenchmark.targets(rows);

        assertThat(report)
                .contains("streamsplit/official >= 1.00, every shape")
                .contains("met on 2 of 4 shapes, 1 clearly missed")
                .containsPattern("1024 B bytes, 16 partitions, p=1 +0\\.97 \\(0\\.91–1\\.04\\)\\n")
                .containsPattern("1024 B bytes, 64 partitions, p=1 +0\\.92 \\(0\\.88–0\\.99\\) clearly");
        // tiny records: only the 10 B shape counts, and 1.05 is below 1.10 but within its rounds
        assertThat(report).containsPattern("tiny records \\(10 B bytes, String\\) +met on 0 of 1 shapes, 0 clearly");
        assertThat(report).containsPattern("64 partitions +met on 0 of 2 shapes, 1 clearly");
    }

    private static SourceMatrixBenchmark.Row row(int recordSize, int partitions, RoundRatio ssOverOfficial) {
        ThroughputSettings shape = new ThroughputSettings(1000, recordSize, partitions, 1, 5, ReadAs.BYTES);
        RoundRatio vsRaw = new RoundRatio(1.0, 0.96, 1.02, 5);
        return new SourceMatrixBenchmark.Row(
                shape, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), ssOverOfficial, ssOverOfficial, vsRaw);
    }
}
