package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md shows how to secure the endpoint with the sample's own security configuration:
 * the page's Java block is that file, word for word, so it compiles (with the sample) and cannot drift.
 */
class OperationsPageTest {

    @Test
    void theSecuritySampleOnTheOperationsPageIsTheSamplesOwnConfiguration() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "operations.md"));
        String source = Files.readString(
                Path.of("src", "main", "java", "io", "streamsplit", "sample", "OperationsSecurity.java"));

        assertThat(page).contains("```java\n" + source + "```");
    }
}
