package io.streamsplit.benchmarks.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.benchmarks.isolated.JvmLauncher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to the whole-pipeline harness: one line saying what is wrong, exit status 2, nothing started. */
class PipelineBenchmarkBadInputIT {

    @TempDir
    Path dir;

    @Test
    void anUnknownVariantIsOneLineNamingTheKnownOnes() throws Exception {
        List<String> output = run("--variants", "totals,kstreams-nope");

        assertThat(output)
                .singleElement()
                .asString()
                .startsWith("PipelineBenchmark: unknown variant kstreams-nope; known: ")
                .contains("kstreams-totals", "kstreams-transform");
    }

    @Test
    void aBrokerThatIsNotThereIsOneLineNamingTheAddress() throws Exception {
        List<String> output = run("--variants", "totals", "--bootstrap-servers", "localhost:1");

        assertThat(output)
                .singleElement()
                .asString()
                .startsWith("PipelineBenchmark: no Kafka broker answered at --bootstrap-servers localhost:1");
    }

    /** The harness's lines (the Kafka client's own logging aside), once it has exited with status 2. */
    private List<String> run(String... args) throws Exception {
        Path log = dir.resolve("harness.log");
        Process harness = JvmLauncher.start(
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=off", "-Dlogback.configurationFile=none"),
                PipelineBenchmark.class,
                List.of(args),
                log);
        assertThat(harness.waitFor(60, TimeUnit.SECONDS))
                .as("the harness exits")
                .isTrue();
        assertThat(harness.exitValue()).as(Files.readString(log)).isEqualTo(2);
        return Files.readAllLines(log).stream()
                .filter(line -> line.startsWith("PipelineBenchmark"))
                .toList();
    }
}
