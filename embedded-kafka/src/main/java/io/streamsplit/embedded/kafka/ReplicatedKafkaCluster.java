package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replicated Apache Kafka cluster for tests: {@code N} KRaft nodes, each Kafka's own server in a JVM of its
 * own on localhost, with replication as production sets it (by default 3 nodes, replication factor 3 and
 * {@code min.insync.replicas} 2 for every topic, the offsets and the transaction state). Nodes are killed
 * ({@code kill -9}), stopped (SIGTERM: Kafka's controlled shutdown) and started again by id, with their ports
 * and log directories, and the cluster says which node leads a partition, which is the active controller and
 * which coordinates a transactional id.
 *
 * <p>Every node is broker and controller at once (KRaft's combined mode): three JVMs instead of six on a test
 * machine, and a node that dies takes a controller with it, as in the small clusters that run this way; three
 * voters keep a quorum while one is down.
 *
 * <pre>{@code
 * try (ReplicatedKafkaCluster kafka = ReplicatedKafkaCluster.builder().build().start()) {
 *     kafka.createTopic("orders", 3);
 *     int leader = kafka.leader("orders", 0);
 *     kafka.kill(leader); // another in-sync replica takes over
 *     kafka.start(leader);
 * }
 * }</pre>
 */
public final class ReplicatedKafkaCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedKafkaCluster.class);
    /** How long a node may take to start, and the cluster to be registered or in sync again. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final int nodes;
    private final short replicationFactor;
    private final int minInsyncReplicas;
    private final Map<String, String> brokerProperties;
    private final List<String> jvmOptions;
    private final @Nullable Short transactionVersion;
    private final Path workDir;
    private final boolean ownsWorkDir;
    private final String clusterId = Uuid.randomUuid().toString();
    private final int[] ports;
    private final int[] controllerPorts;
    private final List<KafkaNodeJvm> jvms = new ArrayList<>();
    private final Map<Integer, SmallDisk> smallDisks = new LinkedHashMap<>();
    private final Thread shutdownHook =
            new Thread(() -> jvms.forEach(KafkaNodeJvm::destroy), "replicated-kafka-cluster-shutdown");
    private final ClusterAdmin admin;

    private ReplicatedKafkaCluster(Builder builder) throws IOException {
        this.nodes = builder.nodes;
        this.replicationFactor = builder.replicationFactor;
        this.minInsyncReplicas = builder.minInsyncReplicas;
        this.brokerProperties = new LinkedHashMap<>(builder.brokerProperties);
        this.jvmOptions = List.copyOf(builder.jvmOptions);
        this.transactionVersion = builder.transactionVersion;
        this.ownsWorkDir = builder.workDir == null;
        this.workDir = builder.workDir != null ? builder.workDir : Files.createTempDirectory("replicated-kafka");
        this.ports = new int[nodes];
        this.controllerPorts = new int[nodes];
        Set<Integer> taken = new java.util.HashSet<>();
        for (int i = 0; i < nodes; i++) {
            ports[i] = BrokerSupport.freePortOtherThan(BrokerSupport::freePort, taken);
            taken.add(ports[i]);
            controllerPorts[i] = BrokerSupport.freePortOtherThan(BrokerSupport::freePort, taken);
            taken.add(controllerPorts[i]);
            jvms.add(new KafkaNodeJvm(i + 1, workDir, jvmOptions, clusterId, transactionVersion));
        }
        this.admin = new ClusterAdmin(bootstrapServers(), replicationFactor);
        builder.smallDisks.forEach((id, bytes) -> {
            jvm(id); // a node of this cluster
            smallDisks.put(id, SmallDisk.mount(dataDir(id), bytes));
        });
    }

    /**
     * Whether this machine lets {@link Builder#smallDisk} give a node a filesystem of its own: Linux, and the
     * rights to mount one (root or {@code CAP_SYS_ADMIN}).
     */
    public static boolean canLimitDisks() {
        return SmallDisk.available();
    }

    /** Starts building a cluster; {@code builder().build().start()} gives three nodes on free ports. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts every node and waits until each is a registered broker; returns this cluster. */
    public ReplicatedKafkaCluster start() {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        for (int id : nodeIds()) {
            jvm(id).start(serverProperties(id));
        }
        for (int id : nodeIds()) {
            jvm(id).awaitReady(START_TIMEOUT);
        }
        admin.awaitRegistered(Set.copyOf(nodeIds()));
        LOG.info(
                "Replicated Kafka cluster of {} KRaft nodes is up at {} (replication factor {}, min.insync.replicas {})",
                nodes,
                bootstrapServers(),
                replicationFactor,
                minInsyncReplicas);
        return this;
    }

    /** Every node's listener, {@code localhost:p1,localhost:p2,…}: clients find the running ones. */
    public String bootstrapServers() {
        return IntStream.of(ports).mapToObj(port -> "localhost:" + port).collect(Collectors.joining(","));
    }

    /** The node ids, 1 to N. */
    public List<Integer> nodeIds() {
        return IntStream.rangeClosed(1, nodes).boxed().toList();
    }

    /** Whether node {@code id}'s JVM runs. */
    public boolean isRunning(int id) {
        return jvm(id).isRunning();
    }

    /** Kills node {@code id} as {@code kill -9} does (no controlled shutdown) and waits until it is gone. */
    public void kill(int id) {
        jvm(id).kill();
        LOG.info("Killed Kafka node {} (kill -9)", id);
    }

    /**
     * Stops node {@code id} with SIGTERM, as an orderly restart does: Kafka's controlled shutdown moves its
     * partition leaderships to other in-sync replicas first. Waits until the JVM exited.
     */
    public void stop(int id) {
        jvm(id).stop();
        LOG.info("Stopped Kafka node {} (SIGTERM, controlled shutdown)", id);
    }

    /** Starts node {@code id} again (same ports, same log directory) and waits until it is a registered broker. */
    public void start(int id) {
        if (isRunning(id)) {
            throw new IllegalStateException("Kafka node " + id + " is running; stop or kill it first");
        }
        jvm(id).start(serverProperties(id));
        jvm(id).awaitReady(START_TIMEOUT);
        admin.awaitRegistered(Set.of(id));
        LOG.info("Started Kafka node {} again", id);
    }

    /**
     * Restarts every node in turn, as an upgrade does: SIGTERM, start, and wait until every partition of
     * {@code topics} has all its replicas in sync again before the next node goes.
     */
    public void rollingRestart(String... topics) {
        rolling(null, topics);
    }

    /**
     * Fills node {@code id}'s disk (given by {@link Builder#smallDisk}) to the last byte, as a disk fills in
     * production; returns the bytes it took. Kafka stops a node whose every log directory failed: the node's JVM
     * ends at its next write. {@link #freeDisk} makes room again.
     */
    public long fillDisk(int id) {
        long bytes = smallDisk(id).fill();
        LOG.info("Filled the disk of Kafka node {} ({} MB written)", id, bytes / (1024 * 1024));
        return bytes;
    }

    /** Deletes what {@link #fillDisk} wrote on node {@code id}'s disk. */
    public void freeDisk(int id) {
        smallDisk(id).free();
        LOG.info("Freed the disk of Kafka node {}", id);
    }

    /**
     * Upgrades every node in turn, as a rolling upgrade of Kafka does: SIGTERM, start from {@code classpath}
     * (another Kafka version's jars, {@link UpgradeClasspath#withJarsFrom}), and wait until every partition of
     * {@code topics} has all its replicas in sync again before the next node goes. The cluster's metadata version
     * is left as it was (Kafka's "finalize" step is the operator's), so the same call with the old classpath
     * downgrades again.
     */
    public void rollingUpgrade(String classpath, String... topics) {
        rolling(classpath, topics);
    }

    /** Each node in turn: SIGTERM, start (from {@code classpath} when given), all of {@code topics} in sync again. */
    private void rolling(@Nullable String classpath, String... topics) {
        for (int id : nodeIds()) {
            stop(id);
            if (classpath != null) {
                jvm(id).useClasspath(classpath);
            }
            start(id);
            if (classpath != null) {
                LOG.info("Kafka node {} runs Kafka {}", id, kafkaVersion(id));
            }
            awaitInSync(topics);
        }
    }

    /** The Kafka version node {@code id} runs since its last start, as it says; {@code null} before it started. */
    public @Nullable String kafkaVersion(int id) {
        return jvm(id).kafkaVersion();
    }

    /** Creates {@code topic} with {@code partitions} partitions at the cluster's replication factor. */
    public void createTopic(String topic, int partitions) {
        admin.createTopic(topic, partitions);
    }

    /** The node that leads {@code topic}'s partition {@code partition}, or -1 while none does. */
    public int leader(String topic, int partition) {
        return admin.leader(topic, partition);
    }

    /** The nodes in sync for {@code topic}'s partition {@code partition}. */
    public List<Integer> inSyncReplicas(String topic, int partition) {
        return admin.inSyncReplicas(topic, partition);
    }

    /** The active controller: the leader of the KRaft quorum. */
    public int activeController() {
        return admin.activeController();
    }

    /** The node coordinating {@code transactionalId}'s transactions (the leader of its transaction state partition). */
    public int transactionCoordinator(String transactionalId) {
        return admin.transactionCoordinator(transactionalId);
    }

    /** Waits until every partition of {@code topics} has a leader and all its replicas in sync. */
    public void awaitInSync(String... topics) {
        admin.awaitInSync(topics);
    }

    /** Where the nodes keep their logs ({@code node-<id>.log}) and data ({@code node-<id>/}). */
    public Path workDir() {
        return workDir;
    }

    /** Stops every node (standard input closed: a controlled shutdown), then deletes the data if this cluster made it. */
    @Override
    public void close() {
        admin.close();
        jvms.forEach(KafkaNodeJvm::endInput);
        jvms.forEach(jvm -> jvm.awaitEnd(Duration.ofSeconds(30)));
        smallDisks.values().forEach(SmallDisk::unmount);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran
        }
        if (ownsWorkDir) {
            BrokerSupport.deleteRecursively(workDir);
        }
    }

    private Properties serverProperties(int id) {
        String voters = nodeIds().stream()
                .map(n -> n + "@localhost:" + controllerPorts[n - 1])
                .collect(Collectors.joining(","));
        Properties props = BrokerSupport.kraftNode(id, voters, dataDir(id), replicationFactor, minInsyncReplicas);
        BrokerSupport.plaintextListeners(props, ports[id - 1], controllerPorts[id - 1]);
        props.put("default.replication.factor", String.valueOf(replicationFactor));
        props.put("min.insync.replicas", String.valueOf(minInsyncReplicas));
        props.putAll(brokerProperties);
        return props;
    }

    private Path dataDir(int id) {
        return workDir.resolve("node-" + id);
    }

    private SmallDisk smallDisk(int id) {
        SmallDisk disk = smallDisks.get(id);
        if (disk == null) {
            throw new IllegalStateException("Kafka node " + id
                    + " has no disk of its own; give it one with builder().smallDisk(" + id + ", bytes)");
        }
        return disk;
    }

    private KafkaNodeJvm jvm(int id) {
        if (id < 1 || id > nodes) {
            throw new IllegalArgumentException("No Kafka node " + id + "; the nodes are " + nodeIds());
        }
        return jvms.get(id - 1);
    }

    static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    /** Builds a {@link ReplicatedKafkaCluster}. */
    public static final class Builder {
        private int nodes = 3;
        private short replicationFactor = 3;
        private int minInsyncReplicas = 2;
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private List<String> jvmOptions = List.of("-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        private @Nullable Short transactionVersion;
        private @Nullable Path workDir;
        private final Map<Integer, Long> smallDisks = new LinkedHashMap<>();

        private Builder() {}

        /** How many KRaft nodes (3 by default; at least as many as the replication factor). */
        public Builder nodes(int nodes) {
            this.nodes = nodes;
            return this;
        }

        /** The replication factor of every topic, the offsets and the transaction state (3 by default). */
        public Builder replicationFactor(int replicationFactor) {
            this.replicationFactor = (short) replicationFactor;
            return this;
        }

        /** {@code min.insync.replicas} of every topic and of the transaction state (2 by default). */
        public Builder minInsyncReplicas(int minInsyncReplicas) {
            this.minInsyncReplicas = minInsyncReplicas;
            return this;
        }

        /** One more server property for every node. */
        public Builder brokerProperty(String key, String value) {
            brokerProperties.put(key, value);
            return this;
        }

        /** The nodes' JVM options (a 384 MB heap, Serial GC and C1 only by default: small and quick to start). */
        public Builder jvmOptions(List<String> jvmOptions) {
            this.jvmOptions = List.copyOf(jvmOptions);
            return this;
        }

        /** The transaction protocol the cluster is formatted with (Kafka's default when unset: 2 on Kafka 4). */
        public Builder transactionVersion(int transactionVersion) {
            this.transactionVersion = (short) transactionVersion;
            return this;
        }

        /**
         * Gives node {@code id} a disk of its own of {@code bytes} (a {@code tmpfs} mounted at its data directory),
         * for {@link #fillDisk}; needs Linux and the rights to mount ({@link #canLimitDisks()}).
         */
        public Builder smallDisk(int id, long bytes) {
            smallDisks.put(id, bytes);
            return this;
        }

        /** Where the nodes keep data and logs (a new temporary directory, deleted on close, by default). */
        public Builder workDir(Path workDir) {
            this.workDir = workDir;
            return this;
        }

        public ReplicatedKafkaCluster build() {
            if (replicationFactor > nodes || minInsyncReplicas > replicationFactor || minInsyncReplicas < 1) {
                throw new IllegalArgumentException("A cluster of " + nodes + " nodes cannot hold replication factor "
                        + replicationFactor + " with min.insync.replicas " + minInsyncReplicas
                        + ": need 1 <= min.insync.replicas <= replication factor <= nodes");
            }
            try {
                return new ReplicatedKafkaCluster(this);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not create the cluster's directory", e);
            }
        }
    }
}
