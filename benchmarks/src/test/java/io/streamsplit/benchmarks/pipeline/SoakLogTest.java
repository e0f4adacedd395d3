package io.streamsplit.benchmarks.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakLogTest {

    @TempDir
    Path dir;

    @Test
    void eachReadTakesTheCompleteLinesWrittenSinceTheLastOne() throws Exception {
        Path app = dir.resolve("app.log");
        Path gc = dir.resolve("gc.log");
        Files.writeString(app, """
                2026-12-04T10:42:55.195Z  INFO 31276 --- [uppercase] [ger-io-thread-2] o.a.f.r.c.CheckpointCoordinator          : Completed checkpoint 1 for job b3f6ce9db8acd729988b53f4fb00e6cf (1168 bytes, checkpointDuration=151 ms, finalizationTime=12 ms).
                2026-12-04T10:42:56.001Z  WARN 31276 --- [uppercase] [main] o.a.k.c.NetworkClient : Connection to node 1 could not be established.
                	at some.Stack.trace(Trace.java:1)
                2026-12-04T10:42:56.084Z  INFO 31276 --- [uppercase] [ger-io-thread-1] o.a.f.r.c.CheckpointCoordinator          : Completed checkpoint 2 for job b3f6ce9db8acd729988b53f4fb00e6cf (2048 bytes, checkpointDuration=54 ms, finalizationTime=30 ms).
                2026-12-04T10:42:57.000Z ERROR 31276 --- [uppercase] [main] i.s.Some : Something broke
                2026-12-04T10:42:57.500Z  INFO 31276 --- [uppercase] [main] i.s.Some : half a line""");
        Files.writeString(gc, """
                [1.234s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->5M(1024M) 3.012ms
                [2.000s][info][gc] GC(1) Concurrent Mark Cycle 12.345ms
                [60.500s][info][gc] GC(2) Pause Full (System.gc()) 310M->84M(1024M) 201.433ms
                """);
        SoakLog log = new SoakLog(app, gc);

        SoakLog.Minute first = log.read();

        assertThat(first.checkpointMillis()).containsExactly(151.0, 54.0);
        assertThat(first.checkpointBytes()).containsExactly(1168L, 2048L);
        assertThat(first.warnings()).isEqualTo(1);
        assertThat(first.errors()).isEqualTo(1);
        assertThat(first.heapAfterGcMb()).containsExactly(5.0, 84.0);
        assertThat(first.heapAfterFullGcMb()).isEqualTo(84.0);
        assertThat(log.warnings())
                .containsEntry("o.a.k.c.NetworkClient : Connection to node 1 could not be established.", 1);
        assertThat(log.errors()).containsEntry("i.s.Some : Something broke", 1);

        Files.writeString(
                app,
                " finished\n2026-12-04T10:43:00.000Z  WARN 31276 --- [uppercase] [main] o.a.k.c.NetworkClient :"
                        + " Connection to node 1 could not be established.\n",
                StandardOpenOption.APPEND);
        SoakLog.Minute second = log.read();

        assertThat(second.checkpointMillis()).isEmpty();
        assertThat(second.warnings()).isEqualTo(1);
        assertThat(second.errors()).isZero();
        assertThat(second.heapAfterFullGcMb()).isNaN();
        assertThat(log.warnings())
                .containsEntry("o.a.k.c.NetworkClient : Connection to node 1 could not be established.", 2);
    }

    @Test
    void theReportComparesTheSecondHalfWithMinutesTenToTwentyAndFailsOnLossDuplicatesAndErrors() throws Exception {
        java.util.List<SoakBenchmark.Row> rows = new java.util.ArrayList<>();
        for (int minute = 1; minute <= 60; minute++) {
            // RSS grows 1 MB a minute: 515 MB early, 545 MB late, +5.8 %; the heap stays at 80 MB
            rows.add(new SoakBenchmark.Row(
                    minute,
                    minute * 300_000L,
                    minute * 300_000L,
                    500 + minute,
                    80,
                    120,
                    300,
                    60,
                    40,
                    90,
                    4_000,
                    2_500,
                    600,
                    1_100,
                    minute == 1 ? 2 : 0,
                    0));
        }
        SoakLog noLines = new SoakLog(dir.resolve("none.log"), dir.resolve("none-gc.log"));

        String md = new SoakReport(rows, noLines, 18_000_000, 18_000_000, 0, 5_000).markdown();

        assertThat(md)
                .contains("| RSS (MB) | 515.0 | 545.5 | 1.059 | no |")
                .contains("| heap after full GC (MB) | 80.0 | 80.0 | 1.000 | yes |")
                .contains("WARN lines: 2 in the first half, 0 in the second; ERROR lines: 0");
        new SoakReport(rows, noLines, 18_000_000, 18_000_000, 0, 5_000).check();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new SoakReport(rows, noLines, 18_000_000, 17_999_990, 3, 5_000).check())
                .hasMessageContaining("10 of 18000000 payments never answered")
                .hasMessageContaining("3 payments answered twice");
    }

    @Test
    void aMinuteWrittenToTheCsvReadsBackForRedrawingThePlot() {
        SoakBenchmark.Row row = new SoakBenchmark.Row(
                7, 2_100_000, 2_099_000, 488.5, 40, 92, 138, 60, 12, 31, 331_190, 2_250, 518, 1_008, 1, 0);

        assertThat(SoakChart.row(row.csv())).isEqualTo(row);
        assertThat(SoakChart.svg(java.util.List.of(row), 5_000)).contains("<polyline", "RSS (MB)", "5,000 payments/s");
    }
}
