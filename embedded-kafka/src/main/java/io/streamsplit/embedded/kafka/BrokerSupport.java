package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Ports, directories and readiness for {@link EmbeddedKafkaBroker}. */
final class BrokerSupport {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerSupport.class);

    private BrokerSupport() {
    }

    /** Waits until the broker at {@code client}'s bootstrap servers registers a node. */
    static void awaitReady(Properties client, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(properties)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException e) {
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("the broker registered no nodes within " + timeout);
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("localhost", 0));
            return socket.getLocalPort();
        }
    }

    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("Could not delete the embedded Kafka broker's log directory {}", dir, e);
        }
    }
}
