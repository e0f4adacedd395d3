package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The JVM of one {@link ReplicatedKafkaCluster} node: started from its server properties ({@link KafkaClusterNode}),
 * ready once it says so in its log (which every start appends to), killed, stopped or ended with the cluster.
 */
final class KafkaNodeJvm {

    private final int id;
    private final Path properties;
    private final Path log;
    private final List<String> jvmOptions;
    private final String clusterId;
    private final @Nullable Short transactionVersion;
    private List<String> command;
    private @Nullable Process process;
    /** Where this start's lines begin in the log, which every start appends to. */
    private long logStart;

    KafkaNodeJvm(int id, Path workDir, List<String> jvmOptions, String clusterId, @Nullable Short transactionVersion) {
        this.id = id;
        this.properties = workDir.resolve("node-" + id + ".properties");
        this.log = workDir.resolve("node-" + id + ".log");
        this.jvmOptions = List.copyOf(jvmOptions);
        this.clusterId = clusterId;
        this.transactionVersion = transactionVersion;
        this.command = command(System.getProperty("java.class.path"));
    }

    /** The next start runs Kafka from {@code classpath} (another version's jars: an upgrade). */
    void useClasspath(String classpath) {
        this.command = command(classpath);
    }

    /** The Kafka version this start of the node runs, as it says in its log ({@code 4.2.2}), or null. */
    @Nullable
    String kafkaVersion() {
        try (RandomAccessFile in = new RandomAccessFile(log.toFile(), "r")) {
            in.seek(logStart);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith(KafkaClusterNode.VERSION)) {
                    return line.substring(KafkaClusterNode.VERSION.length()).trim();
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private List<String> command(String classpath) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp",
                classpath,
                KafkaClusterNode.class.getName(),
                properties.toString(),
                clusterId,
                String.valueOf(transactionVersion == null ? -1 : transactionVersion)));
        return List.copyOf(command);
    }

    /** Writes {@code server} as the node's properties and starts its JVM (without waiting: {@link #awaitReady}). */
    void start(Properties server) {
        try {
            logStart = Files.exists(log) ? Files.size(log) : 0;
            try (Writer out = Files.newBufferedWriter(properties)) {
                server.store(out, "node " + id + " of a ReplicatedKafkaCluster");
            }
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start Kafka node " + id, e);
        }
    }

    /** Waits until the node's server runs (this start's part of its log says so). */
    void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (saidReady()) {
                return;
            }
            if (!isRunning()) {
                throw new IllegalStateException("Kafka node " + id + " exited while starting; its log:\n" + tail());
            }
            ReplicatedKafkaCluster.sleep(100);
        }
        throw new IllegalStateException(
                "Kafka node " + id + " did not start within " + timeout.toSeconds() + " s; its log:\n" + tail());
    }

    boolean isRunning() {
        Process current = process;
        return current != null && current.isAlive();
    }

    /** As {@code kill -9}: no controlled shutdown. Waits until the JVM is gone. */
    void kill() {
        Process current = running();
        current.destroyForcibly();
        awaitExit(current, Duration.ofSeconds(30));
    }

    /** SIGTERM: Kafka's controlled shutdown hands leaderships over first. Waits until the JVM exited. */
    void stop() {
        Process current = running();
        current.destroy();
        awaitExit(current, Duration.ofSeconds(90));
    }

    /** Closes the node's standard input, which ends it (a controlled shutdown); see {@link #awaitEnd}. */
    void endInput() {
        Process current = process;
        if (current != null && current.isAlive()) {
            try {
                current.getOutputStream().close();
            } catch (IOException e) {
                current.destroy();
            }
        }
    }

    /** Waits for the JVM to end after {@link #endInput}, and kills it if it does not within {@code timeout}. */
    void awaitEnd(Duration timeout) {
        Process current = process;
        if (current == null) {
            return;
        }
        try {
            if (!current.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                current.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            current.destroyForcibly();
        }
    }

    /** Kills the JVM without waiting: the test JVM's shutdown hook. */
    void destroy() {
        Process current = process;
        if (current != null) {
            current.destroyForcibly();
        }
    }

    /** The last 40 lines of the node's log, for an error message. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private Process running() {
        Process current = process;
        if (current == null || !current.isAlive()) {
            throw new IllegalStateException("Kafka node " + id + " is not running");
        }
        return current;
    }

    private void awaitExit(Process current, Duration timeout) {
        try {
            if (!current.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                current.destroyForcibly().waitFor();
                throw new IllegalStateException("Kafka node " + id + " did not exit within " + timeout.toSeconds()
                        + " s and was killed; its log:\n" + tail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted waiting for Kafka node " + id + " to exit", e);
        }
    }

    /** Whether this start's part of the log holds the READY line: read from where it began, not from the top. */
    private boolean saidReady() {
        try (RandomAccessFile in = new RandomAccessFile(log.toFile(), "r")) {
            in.seek(logStart);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals(KafkaClusterNode.READY)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false; // not written yet
        }
    }
}
