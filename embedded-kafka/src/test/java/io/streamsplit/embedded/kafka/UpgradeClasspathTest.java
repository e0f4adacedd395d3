package io.streamsplit.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The classpath of an upgraded node: this JVM's, with each jar another version is given of swapped for it. */
class UpgradeClasspathTest {

    @Test
    void swapsTheJarsOfTheSameArtifactAndKeepsTheRest(@TempDir Path dir) throws IOException {
        Path clients = Files.createFile(dir.resolve("kafka-clients-9.9.9.jar"));
        Path scala = Files.createFile(dir.resolve("kafka_2.13-9.9.9.jar"));

        List<String> upgraded = Arrays.asList(UpgradeClasspath.withJarsFrom(dir).split(File.pathSeparator));
        List<String> current =
                Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));

        assertThat(upgraded).hasSameSizeAs(current).contains(clients.toString(), scala.toString());
        assertThat(upgraded).noneMatch(entry -> entry.endsWith("kafka-clients-" + version(current) + ".jar"));
        assertThat(upgraded)
                .as("every other entry as it was")
                .containsAll(current.stream()
                        .filter(entry -> !entry.contains("kafka-clients-") && !entry.contains("kafka_2.13-"))
                        .toList());
    }

    @Test
    void anEmptyDirectoryIsAMistake(@TempDir Path dir) {
        assertThatThrownBy(() -> UpgradeClasspath.withJarsFrom(dir)).hasMessageContaining("No jars in " + dir);
    }

    private static String version(List<String> classpath) {
        String jar = classpath.stream()
                .filter(entry -> entry.contains("kafka-clients-"))
                .findFirst()
                .orElseThrow();
        return jar.substring(jar.lastIndexOf("kafka-clients-") + "kafka-clients-".length(), jar.length() - 4);
    }
}
