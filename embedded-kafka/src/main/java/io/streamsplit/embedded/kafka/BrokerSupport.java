package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Ports, directories, server settings and readiness for {@link EmbeddedKafkaBroker}. */
final class BrokerSupport {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerSupport.class);

    private BrokerSupport() {}

    /** Waits until the broker at {@code client}'s bootstrap servers registers a node. */
    static void awaitReady(Properties client, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(properties)) {
            awaitBrokers(admin, Set.of(), timeout);
        }
    }

    /**
     * Waits until the cluster {@code admin} talks to lists every broker of {@code ids} as registered (any broker
     * when {@code ids} is empty); answers that fail meanwhile (no controller elected yet) are asked again.
     */
    static void awaitBrokers(Admin admin, Set<Integer> ids, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<Integer> registered = Set.of();
        while (true) {
            try {
                registered = admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).stream()
                        .map(Node::id)
                        .collect(Collectors.toSet());
                if (ids.isEmpty() ? !registered.isEmpty() : registered.containsAll(ids)) {
                    return;
                }
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("brokers " + (ids.isEmpty() ? "(any)" : ids) + " did not register within "
                        + timeout + " (registered: " + registered + ")");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /** Finds a free port for a listener (the broker binds it later). */
    interface PortProbe {
        int freePort() throws IOException;
    }

    /** Formats {@code logDir} as a single-node KRaft cluster (a directory already formatted is left as it is). */
    static void format(Path logDir, String clusterId, @Nullable Short transactionVersion) throws Exception {
        format(logDir, EmbeddedKafkaBroker.NODE_ID, clusterId, transactionVersion);
    }

    /**
     * Formats {@code logDir} as node {@code nodeId} of KRaft cluster {@code clusterId}, whose controllers are
     * the static {@code controller.quorum.voters} of the node's configuration (a directory already formatted is
     * left as it is).
     */
    static void format(Path logDir, int nodeId, String clusterId, @Nullable Short transactionVersion) throws Exception {
        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(nodeId)
                .setClusterId(clusterId)
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setReleaseVersion(MetadataVersion.latestProduction())
                .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                .setControllerListenerName("CONTROLLER")
                .setIgnoreFormatted(true);
        if (transactionVersion != null) {
            formatter.setFeatureLevel(Feature.TRANSACTION_VERSION.featureName(), transactionVersion);
        }
        formatter.run();
    }

    /** Whether {@code failure} comes from a listener that could not bind its port. */
    static boolean failedToBind(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.BindException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A free port from {@code probe} that is none of {@code taken}: the operating system may hand a port it just
     * released to the next probe, and Kafka refuses two listeners on one port.
     */
    static int freePortOtherThan(PortProbe probe, Set<Integer> taken) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = probe.freePort();
            if (!taken.contains(port)) {
                return port;
            }
        }
        throw new IOException("No free port other than " + taken + " after 50 probes");
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
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("Could not delete the embedded Kafka broker's log directory {}", dir, e);
        }
    }

    /**
     * What every combined broker + controller node here has: its id among {@code voters}, its data in {@code
     * dataDir}, the internal topics (offsets, transactions, share state) with {@code replication} replicas and
     * {@code minIsr} in sync, one partition per created topic, no rebalance delay; listeners are the caller's.
     */
    static Properties kraftNode(int nodeId, String voters, Path dataDir, int replication, int minIsr) {
        String rf = String.valueOf(replication);
        String isr = String.valueOf(minIsr);
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", String.valueOf(nodeId));
        props.put("controller.quorum.voters", voters);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("log.dirs", dataDir.toString());
        props.put("metadata.log.dir", dataDir.toString());
        props.put("offsets.topic.replication.factor", rf);
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", rf);
        props.put("transaction.state.log.min.isr", isr);
        props.put("transaction.state.log.num.partitions", "5");
        props.put("share.coordinator.state.topic.replication.factor", rf);
        props.put("share.coordinator.state.topic.min.isr", isr);
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("num.partitions", "1");
        return props;
    }

    /** A plaintext client listener on {@code port} and the controller's on {@code controllerPort}, on localhost. */
    static void plaintextListeners(Properties props, int port, int controllerPort) {
        props.put("listeners", "PLAINTEXT://localhost:" + port + ",CONTROLLER://localhost:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://localhost:" + port);
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    }

    /** The combined broker + controller's settings for one node on localhost. */
    static Properties serverProperties(
            int port,
            int controllerPort,
            int internalPort,
            Path logDir,
            @Nullable BrokerSecurity security,
            Map<String, String> brokerProperties) {
        Properties props = kraftNode(
                EmbeddedKafkaBroker.NODE_ID,
                EmbeddedKafkaBroker.NODE_ID + "@localhost:" + controllerPort,
                logDir,
                1, // one node: internal topics must not ask for replicas that can never exist
                1);
        if (security == null) {
            plaintextListeners(props, port, controllerPort);
        } else {
            String secure = BrokerSecurity.LISTENER;
            props.put(
                    "listeners",
                    "INTERNAL://localhost:" + internalPort + "," + secure + "://localhost:" + port
                            + ",CONTROLLER://localhost:" + controllerPort);
            props.put(
                    "advertised.listeners",
                    "INTERNAL://localhost:" + internalPort + "," + secure + "://localhost:" + port);
            props.put("inter.broker.listener.name", "INTERNAL");
            props.put(
                    "listener.security.protocol.map",
                    "INTERNAL:PLAINTEXT," + secure + ":" + security.protocol() + ",CONTROLLER:PLAINTEXT");
            props.putAll(security.brokerProperties());
        }
        // no no-op record (each a metadata log append and flush) every 500 ms: a lone controller has no one to
        // prove its liveness to, so an idle broker leaves the disk alone, and ten brokers side by side in a
        // build do not queue flushes behind each other (Kafka logged "exceptionally slow controller event")
        props.put("metadata.max.idle.interval.ms", "0");
        props.putAll(brokerProperties);
        return props;
    }
}
