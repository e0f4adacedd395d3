package io.streamsplit.connector.kafka.sink;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The kafka-clients lines Flink's exactly-once Kafka sink is tested with here. Its writer and committer
 * reach into producer internals that change between kafka-clients lines (4.3 removed one; see {@code
 * FlushCompletingWriter}), and a Spring Boot application's dependency management picks the kafka-clients
 * on the class path, so an exactly-once sink on a line nobody ran its recovery tests on is refused before
 * any job runs instead of failing at its first checkpoint — or at its first restart.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.sink.ExactlyOnceKafkaClients;
 *
 * ExactlyOnceKafkaClients.untested(ExactlyOnceKafkaClients.version())
 *         .ifPresent(pin -> { throw new IllegalStateException("pin kafka-clients " + pin); });
 * }</pre>
 */
@PublicEvolving
public final class ExactlyOnceKafkaClients {

    /**
     * The versions the exactly-once recovery tests run on, one per tested line, oldest first: the lines of
     * Spring Boot 4.0 (4.1), 4.1 (4.2) and 4.2 (4.4). Any version of a listed line counts as tested.
     */
    public static final List<String> TESTED = List.of("4.1.2", "4.2.2", "4.4.0");

    private ExactlyOnceKafkaClients() {}

    /**
     * The version of the kafka-clients on the class path, as its jar's {@code kafka/kafka-version.properties}
     * says it ("4.4.0"; the class that reads it moved between lines); "unknown" if the jar does not say.
     */
    public static String version() {
        try (InputStream in = KafkaProducer.class.getResourceAsStream("/kafka/kafka-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown").trim();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the version of kafka-clients", e);
        }
    }

    /**
     * Empty when {@code version} belongs to a tested line; otherwise the tested version to pin instead: the
     * newest one older than {@code version}, or the oldest tested one for a version older than all of them
     * (or one that cannot be read).
     */
    public static Optional<String> untested(String version) {
        String line = line(version);
        if (TESTED.stream().anyMatch(tested -> line(tested).equals(line))) {
            return Optional.empty();
        }
        String pin = TESTED.get(0);
        for (String tested : TESTED) {
            if (compare(tested, version) < 0) {
                pin = tested;
            }
        }
        return Optional.of(pin);
    }

    /** The lines tested, as "4.1.x, 4.2.x, 4.4.x". */
    public static String testedLines() {
        return String.join(", ", TESTED.stream().map(v -> line(v) + ".x").toList());
    }

    /** major.minor of a version ("4.4" of "4.4.0", "4.5" of "4.5.0-SNAPSHOT"); the version itself without a dot. */
    static String line(String version) {
        String[] parts = version.split("[.-]");
        return parts.length < 2 ? version : parts[0] + "." + parts[1];
    }

    /** Compares the numeric major and minor parts; a version that cannot be read is older than every other. */
    private static int compare(String a, String b) {
        int[] x = numbers(a);
        int[] y = numbers(b);
        return x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]);
    }

    private static int[] numbers(String version) {
        String[] parts = line(version).split("\\.");
        try {
            return new int[] {Integer.parseInt(parts[0]), parts.length > 1 ? Integer.parseInt(parts[1]) : 0};
        } catch (NumberFormatException unreadable) {
            return new int[] {-1, -1};
        }
    }
}
