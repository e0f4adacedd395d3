package io.streamsplit.flink.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real ZooKeeper server in its own JVM, for Flink's ZooKeeper high availability: Apache ZooKeeper's
 * {@code ZooKeeperServerMain} as Flink ships it (the {@code flink-shaded-zookeeper-3} jar on the cluster's
 * classpath, the ZooKeeper Flink's own HA client is built against), standalone, its data under the cluster's
 * work directory. {@link StandaloneFlinkClusterBuilder#zooKeeperHighAvailability()} starts one with the cluster.
 */
final class ZooKeeperServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperServer.class);
    private static final String MAIN =
            "org.apache.flink.shaded.zookeeper3.org.apache.zookeeper.server.ZooKeeperServerMain";

    private final int port;
    private final Process process;

    private ZooKeeperServer(int port, Process process) {
        this.port = port;
        this.process = process;
    }

    /** Starts a server on a free port with its data in {@code dir}/zookeeper, and waits until it takes connections. */
    static ZooKeeperServer start(Path dir, String java, String classpath) throws IOException {
        int port = StandaloneFlinkClusterBuilder.freePort();
        Path data = Files.createDirectories(dir.resolve("zookeeper"));
        Process process = new ProcessBuilder(List.of(
                        java,
                        "-Xmx128m",
                        "-XX:+UseSerialGC",
                        "-Dzookeeper.admin.enableServer=false",
                        "-cp",
                        classpath,
                        MAIN,
                        Integer.toString(port),
                        data.toString()))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("zookeeper.log").toFile())
                .start();
        ZooKeeperServer server = new ZooKeeperServer(port, process);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "ZooKeeper exited with code " + process.exitValue() + "; see " + dir.resolve("zookeeper.log"));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("localhost", port), 500);
                LOG.info(
                        "ZooKeeper (pid {}) up at localhost:{}, log {}",
                        process.pid(),
                        port,
                        dir.resolve("zookeeper.log"));
                return server;
            } catch (IOException notYet) {
                sleep();
            }
        }
        server.close();
        throw new IllegalStateException("ZooKeeper did not take connections at localhost:" + port + " within 30 s; see "
                + dir.resolve("zookeeper.log"));
    }

    /** {@code localhost:<port>}: Flink's {@code high-availability.zookeeper.quorum}. */
    String quorum() {
        return "localhost:" + port;
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new java.io.InterruptedIOException("interrupted while ZooKeeper started"));
        }
    }
}
