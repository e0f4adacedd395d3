package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fingerprint decides between adopting a running job and upgrading it: a start of the same build
 * with the same settings must adopt (an upgrade would restart the job on every rolling restart), and
 * a changed pipeline, setting or class must upgrade (adopting would keep the old code running).
 */
class JobFingerprintTest {

    @TempDir
    Path jars;

    @Test
    void theSameJobBuiltTwiceHasOneFingerprint() throws IOException {
        List<Path> shipped = List.of(jar("app.jar", "v1"));

        assertThat(JobFingerprint.of(graph(2, settings -> {}), shipped))
                .isEqualTo(JobFingerprint.of(graph(2, settings -> {}), shipped))
                .hasSize(16);
    }

    @Test
    void whereTheJobIsSubmittedFromAndWhereItResumesDoNotChangeIt() throws IOException {
        Path jar = jar("app.jar", "v1");
        String plain = JobFingerprint.of(graph(2, settings -> {}), List.of(jar));

        String elsewhere = JobFingerprint.of(
                graph(2, settings -> {
                    settings.set(RestOptions.ADDRESS, "flink-jobmanager.prod");
                    settings.set(RestOptions.PORT, 18081);
                    settings.set(PipelineOptions.JARS, List.of("file:/tmp/streamsplit-jars-123/app.jar"));
                    settings.set(StateRecoveryOptions.SAVEPOINT_PATH, "file:/savepoints/savepoint-5d4b9d-1");
                }),
                List.of(jar));

        assertThat(elsewhere).isEqualTo(plain);
    }

    @Test
    void aChangedPipelineSettingOrClassChangesItAndSaysWhichPart() throws IOException {
        Path v1 = jar("app.jar", "v1");
        JobFingerprint.Parts running = JobFingerprint.parts(graph(2, settings -> {}), List.of(v1));

        JobFingerprint.Parts rescaled = JobFingerprint.parts(graph(3, settings -> {}), List.of(v1));
        JobFingerprint.Parts slower = JobFingerprint.parts(
                graph(
                        2,
                        settings -> settings.set(
                                org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_INTERVAL,
                                Duration.ofSeconds(30))),
                List.of(v1));
        Files.createDirectories(jars.resolve("next"));
        JobFingerprint.Parts rebuilt =
                JobFingerprint.parts(graph(2, settings -> {}), List.of(jar("next/app.jar", "v2")));

        assertThat(rescaled.changedFrom(running.toString())).containsExactly("operators");
        assertThat(slower.changedFrom(running.toString())).containsExactly("configuration");
        assertThat(rebuilt.changedFrom(running.toString())).containsExactly("jars");
        assertThat(List.of(rescaled.fingerprint(), slower.fingerprint(), rebuilt.fingerprint()))
                .doesNotContain(running.fingerprint())
                .doesNotHaveDuplicates();
        // a run without a recorded fingerprint (submitted by an older StreamSplit) differs in every part
        assertThat(running.changedFrom(null)).containsExactly("operators", "configuration", "jars");
        assertThat(running.changedFrom(running.toString())).isEmpty();
    }

    @Test
    void aJarRepackedWithTheSameContentIsTheSameJar() throws IOException {
        Path first = jar("app.jar", "v1");
        Files.createDirectories(jars.resolve("later"));
        Path second = jar("later/app.jar", "v1");
        Files.setLastModifiedTime(second, FileTime.fromMillis(0));

        assertThat(JobFingerprint.of(graph(2, settings -> {}), List.of(second)))
                .isEqualTo(JobFingerprint.of(graph(2, settings -> {}), List.of(first)));
    }

    private static StreamGraph graph(int parallelism, Consumer<Configuration> settings) {
        Configuration configuration = new Configuration();
        settings.accept(configuration);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        env.fromData("a", "b", "c")
                .uid("words")
                .map(String::toUpperCase)
                .uid("upper")
                .setParallelism(parallelism)
                .sinkTo(new DiscardingSink<>())
                .uid("out");
        return env.getStreamGraph();
    }

    /** A jar with one class-like entry whose content is {@code content}; entry times differ per call. */
    private Path jar(String name, String content) throws IOException {
        Path jar = jars.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file)) {
            JarEntry entry = new JarEntry("com/example/App.class");
            entry.setTime(System.nanoTime() / 1_000_000);
            out.putNextEntry(entry);
            out.write(content.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
