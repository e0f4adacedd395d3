package io.streamsplit.benchmarks.isolated;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A tiny run of the application start-up harness: the benchmarks app's jar with {@code java -jar}, once. */
class AppStartBenchmarkIT {

    @Test
    void theAppStartsSubmitsItsJobAndWritesOutputInThatOrder() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<AppStartBenchmark.AppRun> runs = AppStartBenchmark.run(
                AppStartBenchmark.benchmarksAppJar(),
                List.of("fat-jar"),
                1,
                Duration.ZERO,
                100,
                new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(runs).hasSize(1);
        AppStartBenchmark.AppRun run = runs.get(0);
        assertThat(run.contextReady()).isPositive();
        assertThat(run.jobSubmitted()).isPositive();
        assertThat(run.firstOutput()).isGreaterThan(run.contextReady());
        if (Files.isDirectory(Path.of("/proc/self"))) {
            assertThat(run.rssMb()).isGreaterThan(50);
        }
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("median fat-jar", "first output");
    }
}
