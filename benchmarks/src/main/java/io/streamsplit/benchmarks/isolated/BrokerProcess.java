package io.streamsplit.benchmarks.isolated;

import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.jspecify.annotations.Nullable;

/**
 * A KRaft broker (Kafka's own server, through {@link EmbeddedKafkaBroker}) in a JVM of its own, as
 * a user's broker is: its CPU and memory are not the reader's, and the reader's JVM can start cold
 * for every run. {@link #main} runs the broker until its standard input closes; {@link #start}
 * launches it from the harness and waits for its address.
 */
public final class BrokerProcess implements AutoCloseable {

    private static final String READY = "BOOTSTRAP=";

    private final @Nullable Process process;
    private final String bootstrapServers;

    private BrokerProcess(@Nullable Process process, String bootstrapServers) {
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

    /**
     * A broker of the harness's own ({@link #start}) when {@code bootstrapServers} is blank, else the one
     * there, once it has answered; one that does not answer within 5 s fails with an {@link
     * IllegalArgumentException} naming the address.
     */
    public static BrokerProcess startOrUse(Path workDir, String bootstrapServers)
            throws IOException, InterruptedException {
        if (bootstrapServers.isBlank()) {
            return start(workDir);
        }
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000"))) {
            admin.describeCluster().clusterId().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            throw new IllegalArgumentException("no Kafka broker answered at --bootstrap-servers " + bootstrapServers
                    + " within 5 s; start one there, or leave the option out to have the harness start its own");
        }
        return new BrokerProcess(null, bootstrapServers);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** CPU seconds the broker JVM has used so far. */
    public double cpuSeconds() {
        return process == null ? -1 : ProcStats.cpuSeconds(process.pid());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (process == null) {
            return; // not ours
        }
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
