package io.streamsplit.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.embedded.kafka.CommittedRecords;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.util.FileSystemUtils;

/**
 * docs/getting-started.md, done as a reader does it: every file the page shows (under a bold path) is
 * written to a fresh folder exactly as shown, built with Maven against the artifacts this build installed
 * (which runs the page's own test with the kit), and the jar is run as the page runs it: on a real Kafka
 * broker (the user's Kafka, here in this JVM) and then on a standalone Flink session cluster. A word sent
 * comes back upper-cased both times. The page cannot drift from the product.
 */
class GettingStartedIT {

    private static final Path PAGE = Path.of("..", "docs", "getting-started.md");
    private static final Pattern FILE =
            Pattern.compile("\\*\\*`([^`]+)`\\*\\*\\n\\n```\\w*\\n(.*?)```", Pattern.DOTALL);
    private static final Duration START = Duration.ofMinutes(2);

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void thePagesProjectBuildsPassesItsTestAndRunsOnKafkaAndOnAFlinkCluster() throws Exception {
        String page = Files.readString(PAGE);
        Map<String, String> files = files(page);
        assertThat(files)
                .containsOnlyKeys(
                        "pom.xml",
                        "src/main/resources/application.yml",
                        "src/main/java/com/example/words/WordsApplication.java",
                        "src/test/java/com/example/words/WordsApplicationTest.java");
        Path project = Path.of("target", "words").toAbsolutePath();
        FileSystemUtils.deleteRecursively(project);
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path target = project.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, file.getValue());
        }

        // step 5 and the jar of step 6: the page's build runs the page's test
        assertThat(page).contains("mvn test", "mvn -B package");
        Process build = process(project, "maven", maven("-B", "-nsu", "package"));
        assertThat(build.waitFor(10, TimeUnit.MINUTES))
                .as("the page's build finishes")
                .isTrue();
        assertThat(build.exitValue())
                .as("the page's build: %s", tail(project.resolve("maven.log")))
                .isZero();
        assertThat(Files.readString(project.resolve("maven.log")))
                .contains("Tests run: 2, Failures: 0, Errors: 0, Skipped: 0");
        Path jar = project.resolve("target/words-0.0.1-SNAPSHOT.jar");
        assertThat(jar).exists();

        // step 6: the topics, the jar on a Kafka
        for (String topic : List.of("words", "words-upper", "words.DLT")) {
            assertThat(page).contains("--create --topic " + topic);
            KAFKA.broker().createTopic(topic, topic.endsWith(".DLT") ? 1 : 2);
        }
        String kafka = "--streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers();
        assertThat(page).contains("java -jar target/words-0.0.1-SNAPSHOT.jar --streamsplit.kafka.bootstrap-servers=");
        Process onKafka =
                process(project, "on-kafka", java(), "-Djava.io.tmpdir=" + tmp(project), "-jar", jar.toString(), kafka);
        try {
            send("hello");
            awaitUpperCased("HELLO", onKafka, project.resolve("on-kafka.log"));
        } finally {
            stop(onKafka);
        }

        // step 7: the same jar, its job on a Flink session cluster
        assertThat(page)
                .contains(
                        "--streamsplit.flink.mode=remote",
                        "--streamsplit.flink.remote.host=localhost",
                        "--streamsplit.flink.parallelism=1",
                        "--streamsplit.flink.checkpointing.storage=");
        // what bin/start-cluster.sh starts: one TaskManager with one task slot
        try (StandaloneFlinkCluster cluster =
                StandaloneFlinkCluster.builder().taskSlots(1).start()) {
            Process onCluster = process(
                    project,
                    "on-cluster",
                    java(),
                    "-Djava.io.tmpdir=" + tmp(project),
                    "-jar",
                    jar.toString(),
                    kafka,
                    "--streamsplit.flink.mode=remote",
                    "--streamsplit.flink.remote.host=localhost",
                    "--streamsplit.flink.remote.port=" + cluster.restPort(),
                    "--streamsplit.flink.parallelism=1",
                    "--streamsplit.flink.checkpointing.storage="
                            + project.resolve("checkpoints").toUri());
            try {
                send("again");
                awaitUpperCased("AGAIN", onCluster, project.resolve("on-cluster.log"));
            } finally {
                stop(onCluster);
            }
        }
    }

    /** Every file the page shows: a bold path, a blank line, then its block. */
    static Map<String, String> files(String page) {
        Map<String, String> files = new LinkedHashMap<>();
        Matcher file = FILE.matcher(page);
        while (file.find()) {
            files.put(file.group(1), file.group(2));
        }
        return files;
    }

    private static void send(String word) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("words", word));
        }
    }

    private static void awaitUpperCased(String expected, Process app, Path log) {
        await().atMost(START)
                .failFast("the application exited: " + tail(log), () -> !app.isAlive())
                .until(() ->
                        CommittedRecords.read(KAFKA.broker().clientProperties(), "words-upper", Duration.ofSeconds(5))
                                .stream()
                                .map(record -> new String(record.value(), StandardCharsets.UTF_8))
                                .anyMatch(expected::equals));
    }

    private static Process process(Path directory, String name, String... command) throws IOException {
        return new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve(name + ".log").toFile())
                .start();
    }

    /** SIGTERM, as a user's Ctrl-C; waits until the JVM has gone. */
    private static void stop(Process app) throws InterruptedException {
        app.destroy();
        if (!app.waitFor(90, TimeUnit.SECONDS)) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** This build's Maven with its local repository, where it installed StreamSplit's artifacts. */
    private static String[] maven(String... arguments) {
        String home = System.getProperty("maven.home");
        List<String> command = new ArrayList<>();
        command.add(
                home == null || home.isBlank()
                        ? "mvn"
                        : Path.of(home, "bin", "mvn").toString());
        String repository = System.getProperty("maven.repo.local");
        if (repository != null && !repository.isBlank()) {
            command.add("-Dmaven.repo.local=" + repository);
        }
        command.addAll(List.of(arguments));
        return command.toArray(String[]::new);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static Path tmp(Path project) throws IOException {
        return Files.createDirectories(project.resolve("tmp"));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(log));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
