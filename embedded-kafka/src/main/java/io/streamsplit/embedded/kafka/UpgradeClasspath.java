package io.streamsplit.embedded.kafka;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The classpath a node of a {@link ReplicatedKafkaCluster} is upgraded to: this JVM's, with Kafka's jars swapped
 * for another version's ({@link ReplicatedKafkaCluster#rollingUpgrade}).
 *
 * <pre>{@code
 * import io.streamsplit.embedded.kafka.UpgradeClasspath;
 *
 * kafka.rollingUpgrade(UpgradeClasspath.withJarsFrom(Path.of("target/kafka-upgrade")), "orders");
 * }</pre>
 */
public final class UpgradeClasspath {

    private UpgradeClasspath() {}

    /**
     * This JVM's classpath with every jar that {@code directory} has another version of replaced by it (matched
     * by artifact: {@code kafka-server-4.2.2.jar} replaces {@code kafka-server-4.1.2.jar}): the classpath of an
     * upgraded node.
     */
    public static String withJarsFrom(Path directory) {
        Map<String, Path> replacements = new LinkedHashMap<>();
        try (var jars = Files.list(directory)) {
            jars.filter(jar -> jar.toString().endsWith(".jar"))
                    .forEach(jar -> replacements.put(artifact(jar.getFileName().toString()), jar));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list the jars in " + directory, e);
        }
        if (replacements.isEmpty()) {
            throw new IllegalArgumentException("No jars in " + directory);
        }
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path replacement =
                    replacements.get(artifact(Path.of(entry).getFileName().toString()));
            entries.add(replacement != null ? replacement.toString() : entry);
        }
        return String.join(File.pathSeparator, entries);
    }

    /** {@code kafka_2.13} of {@code kafka_2.13-4.1.2.jar}: the file name without its version. */
    private static String artifact(String fileName) {
        return fileName.replaceFirst("-\\d[^-]*\\.jar$", "");
    }
}
