package io.streamsplit.benchmarks.isolated;

import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A KRaft broker (Kafka's own server, through {@link EmbeddedKafkaBroker}) in a JVM of its own, as
 * a user's broker is: its CPU and memory are not the reader's, and the reader's JVM can start cold
 * for every run. {@link #main} runs the broker until its standard input closes; {@link #start}
 * launches it from the harness and waits for its address.
 */
public final class BrokerProcess implements AutoCloseable {

    private static final String READY = "BOOTSTRAP=";

    private final Process process;
    private final String bootstrapServers;

    private BrokerProcess(Process process, String bootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
    }

    /** Runs a broker until standard input ends; prints {@code BOOTSTRAP=<host:port>} once it listens. */
    public static void main(String[] args) throws IOException {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            System.out.println(READY + broker.bootstrapServers());
            System.out.flush();
            InputStream in = System.in;
            while (in.read() >= 0) {
                // the harness holds the pipe open while it needs the broker
            }
        }
        System.exit(0);
    }

    /** Starts the broker JVM ({@code -Xmx1g}, as Kafka's start script) and waits until it listens. */
    public static BrokerProcess start(Path workDir) throws IOException, InterruptedException {
        Path log = workDir.resolve("broker.log");
        Process process = JvmLauncher.start(List.of("-Xmx1g", "-Xms1g"), BrokerProcess.class, List.of(), log);
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> ready = Files.readAllLines(log).stream()
                    .filter(line -> line.startsWith(READY))
                    .findFirst();
            if (ready.isPresent()) {
                return new BrokerProcess(process, ready.get().substring(READY.length()));
            }
            if (!process.isAlive()) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        boolean exited = !process.isAlive();
        process.destroyForcibly();
        throw new IllegalStateException(
                (exited ? "The broker JVM exited before it listened" : "The broker JVM did not" + " listen within 90 s")
                        + "; its output:\n" + Files.readString(log));
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** CPU seconds the broker JVM has used so far. */
    public double cpuSeconds() {
        return ProcStats.cpuSeconds(process.pid());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
