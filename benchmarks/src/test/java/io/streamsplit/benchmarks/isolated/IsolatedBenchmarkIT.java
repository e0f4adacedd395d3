package io.streamsplit.benchmarks.isolated;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark.ShapeResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of the separate-JVM harness in the normal build: broker JVM, one fresh JVM per reader run. */
class IsolatedBenchmarkIT {

    @Test
    void eachRunIsAFreshJvmThatReadsEverythingAndReportsItsStartCpuAndMemory(@TempDir Path out) throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        IsolatedSettings settings = IsolatedSettings.parse(
                "--records", "20000", "--rounds", "1", "--warmup", "0", "--partitions", "2", "--xmx", "512m");

        List<ShapeResult> results =
                IsolatedBenchmark.run(settings, new PrintStream(report, true, StandardCharsets.UTF_8));
        IsolatedReport.write(results, out);

        assertThat(results).hasSize(1);
        for (Reader reader : List.of(Reader.OFFICIAL, Reader.STREAMSPLIT)) {
            RunFigures run = results.get(0).runs().get(reader).get(0);
            assertThat(run.records()).as(reader.name()).isEqualTo(20_000);
            // the stages are measured in order, so they add up to the time of the first record
            assertThat(run.mainAtMillis() + run.setupMillis() + run.executeToFirstRecordMillis())
                    .as(reader.name())
                    .isCloseTo(run.firstRecordAtMillis(), org.assertj.core.data.Offset.offset(1.0));
            assertThat(run.clusterMillis()).as(reader.name()).isPositive();
            assertThat(run.lastRecordAtMillis()).isGreaterThanOrEqualTo(run.firstRecordAtMillis());
            if (Files.isDirectory(Path.of("/proc/self"))) {
                assertThat(run.cpuSeconds()).as(reader.name()).isPositive();
                // a JVM that ran a MiniCluster holds far more than 50 MB: the figure is this process's own
                assertThat(run.peakRssMb()).as(reader.name()).isGreaterThan(50);
                // the heap is part of the resident set, never more than it
                assertThat(run.heapCommittedMb()).as(reader.name()).isPositive();
            }
        }
        String text = report.toString(StandardCharsets.UTF_8);
        assertThat(text)
                .contains("round 1 OFFICIAL", "round 1 STREAMSPLIT", "setup ", " + cluster ", " + fetch ")
                .contains("streamsplit/official: whole ", "peak RSS ", "execute->first ")
                .contains("throughput, first -> last record >= 1.10", "peak RSS of the reader JVM <= 1.00");
        assertThat(Files.readAllLines(out.resolve("isolated.csv")))
                .hasSize(2)
                .first()
                .asString()
                .contains("streamsplit_peak_rss_mb", "peak_rss_ratio_high");
    }

    @Test
    void aResultLineSurvivesTheTripBetweenJvms() {
        RunFigures figures =
                new RunFigures(50, 400, 1100, 420, 330, 150, 2450, 3300, 5_000_000, 6.5, 612.5, 410.0, 120);

        RunFigures parsed = RunFigures.parse(figures.toLine());

        assertThat(parsed).isEqualTo(figures);
        assertThat(parsed.executeToFirstRecordMillis()).isEqualTo(2000);
        assertThat(parsed.steadyRecordsPerSecond())
                .isCloseTo(5_000_000 / 0.85, org.assertj.core.data.Offset.offset(1.0));
    }
}
