package io.streamsplit.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.DocsSamplesTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/testing.md is honest: its YAML binds and its Java compiles, imports included, against the kit. */
class TestingPageTest {

    private static final Path PAGE =
            Path.of("..", "docs", "testing.md").toAbsolutePath().normalize();

    @Test
    void yamlSamplesBind() throws IOException {
        DocsSamplesTest.yamlSamplesBind(PAGE);
    }

    @Test
    void theFirstTestIsTheSampleTestThatRunsInCi() throws IOException {
        String sampleTest = Files.readString(Path.of(
                "..",
                "sample-app",
                "src",
                "test",
                "java",
                "io",
                "streamsplit",
                "sample",
                "CustomerTotalsPipelineIT.java"));
        assertThat(Files.readString(PAGE))
                .as("docs/testing.md shows CustomerTotalsPipelineIT verbatim")
                .contains("```java\n" + sampleTest + "```");
    }

    @Test
    void javaSamplesCompile(@TempDir Path classes) throws IOException {
        DocsSamplesTest.javaSamplesCompile(PAGE, classes);
    }
}
