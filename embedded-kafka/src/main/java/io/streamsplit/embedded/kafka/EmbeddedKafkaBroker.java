package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.utils.Time;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker running inside this JVM: KRaft mode, one node acting as broker and
 * controller, started from Kafka's own server classes. Not a mock: clients talk to it over TCP
 * on localhost exactly as they would to a remote cluster.
 *
 * <p>Settings that a single-node cluster needs are preset (replication factor 1 for the offsets
 * and transaction state topics, so consumer groups and transactions work); everything else keeps
 * Kafka's defaults, including {@code transaction.max.timeout.ms} (15 minutes), so tests see what
 * users of a stock broker see.
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
 *     broker.createTopic("orders", 3);
 *     String bootstrap = broker.bootstrapServers(); // e.g. "localhost:40123"
 * }
 * }</pre>
 *
 * <p>{@link #stop()} shuts the broker down and keeps its ports and log directory, so a later
 * {@link #start()} brings the same cluster back (for broker-restart tests); {@link #close()} also
 * deletes the log directory if this broker created it.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    static final int NODE_ID = 1;
    private static final int PORT_ATTEMPTS = 3;
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final int requestedPort;
    private final @Nullable Path requestedLogDir;
    private final Map<String, String> brokerProperties;
    private final @Nullable Short transactionVersion;
    private final @Nullable BrokerSecurity security;
    private final BrokerSupport.PortProbe ports;

    private @Nullable Path logDir;
    private boolean ownsLogDir;
    private int port;
    private int internalPort;
    private int controllerPort;
    private String clusterId;
    private @Nullable KafkaRaftServer server;

    private EmbeddedKafkaBroker(Builder builder) {
        this.requestedPort = builder.port;
        this.requestedLogDir = builder.logDir;
        this.brokerProperties = new LinkedHashMap<>(builder.brokerProperties);
        this.transactionVersion = builder.transactionVersion;
        this.security = builder.security;
        this.ports = builder.ports;
    }

    /** Starts building a broker; {@code builder().build().start()} gives one on a free port. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the broker (formatting its log directory on first start) and waits until it answers
     * metadata requests. Calling it on a running broker does nothing.
     *
     * @return this broker
     */
    public synchronized EmbeddedKafkaBroker start() {
        if (server != null) {
            return this;
        }
        boolean firstStart = logDir == null;
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce();
            } catch (IllegalStateException e) {
                // ports are probed free, then bound by Kafka: another process may take one in between
                if (!firstStart
                        || requestedPort != 0
                        || !ownsLogDir
                        || attempt == PORT_ATTEMPTS
                        || !BrokerSupport.failedToBind(e)) {
                    throw e;
                }
                LOG.warn(
                        "Another process took a port of the embedded Kafka broker before it bound it ({});"
                                + " starting again on new ports (attempt {} of {})",
                        e.getMessage(),
                        attempt + 1,
                        PORT_ATTEMPTS);
                BrokerSupport.deleteRecursively(logDir);
                logDir = null;
            }
        }
    }

    private EmbeddedKafkaBroker startOnce() {
        try {
            if (logDir == null) {
                prepareFirstStart();
            }
            KafkaConfig config = new KafkaConfig(
                    BrokerSupport.serverProperties(
                            port, controllerPort, internalPort, logDir, security, brokerProperties),
                    false);
            KafkaRaftServer raftServer = new KafkaRaftServer(config, Time.SYSTEM);
            server = raftServer; // before startup: a start that fails half-way is shut down, not leaked
            raftServer.startup();
            BrokerSupport.awaitReady(clientProperties(), ADMIN_TIMEOUT);
            if (security != null) {
                SecuritySetup.createScramUsers(this, security);
            }
            LOG.info("Embedded Kafka broker (KRaft) is up at {} (log dir {})", bootstrapServers(), logDir);
            return this;
        } catch (IOException e) {
            stopQuietly();
            throw new UncheckedIOException("Could not prepare the embedded Kafka broker's log directory " + logDir, e);
        } catch (Exception e) {
            stopQuietly();
            throw new IllegalStateException(
                    "The embedded Kafka broker did not start on " + bootstrapServersOrNone() + ": " + e.getMessage(),
                    e);
        }
    }

    /** Shuts the broker down, keeping its ports and data so that {@link #start()} can bring it back. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        LOG.info("Stopping embedded Kafka broker at {}", bootstrapServers());
        server.shutdown();
        server.awaitShutdown();
        server = null;
    }

    /** Stops the broker and deletes its log directory if the broker created it. */
    @Override
    public synchronized void close() {
        stop();
        if (security != null) {
            security.deleteTlsMaterial();
        }
        if (ownsLogDir && logDir != null) {
            BrokerSupport.deleteRecursively(logDir);
            logDir = null;
        }
    }

    /** Whether the broker is running. */
    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * The {@code bootstrap.servers} value for clients, e.g. {@code localhost:40123}: the secured
     * listener when the broker has {@link Builder#security security}.
     */
    public String bootstrapServers() {
        if (port == 0) {
            throw new IllegalStateException("The embedded Kafka broker has not been started yet; call start() first");
        }
        return "localhost:" + port;
    }

    /** The broker's own PLAINTEXT listener (a super user when ACLs are on); the client listener without security. */
    public String internalBootstrapServers() {
        return "localhost:" + (internalPort != 0 ? internalPort : port);
    }

    /** The client listener's security, or null for a PLAINTEXT broker. */
    public @Nullable BrokerSecurity security() {
        return security;
    }

    /**
     * Settings for a client of the secured listener: bootstrap servers, protocol, SASL login for
     * {@code user} with {@code mechanism} (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512), trust store.
     */
    public Properties clientProperties(String user, String password, String mechanism) {
        if (security == null) {
            throw new IllegalStateException("This broker has no security; use clientProperties()");
        }
        Properties properties = security.clientProperties(user, password, mechanism);
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return properties;
    }

    /**
     * Grants {@code principal} (e.g. {@code User:alice}) {@code operation} on {@code resource} and waits
     * until the broker enforces it.
     */
    public void allow(String principal, AclOperation operation, ResourcePattern resource) {
        withAdmin(
                admin -> {
                    SecuritySetup.allow(admin, principal, operation, resource);
                    return null;
                },
                "grant " + operation + " on " + resource + " to " + principal);
    }

    /** Takes back what {@link #allow} granted: an ACL revoked while clients run (the broker needs {@code acls(true)}). */
    public void revoke(String principal, AclOperation operation, ResourcePattern resource) {
        withAdmin(
                admin -> {
                    SecuritySetup.revoke(admin, principal, operation, resource);
                    return null;
                },
                "revoke " + operation + " on " + resource + " from " + principal);
    }

    /** The broker's client port. */
    public int port() {
        return port;
    }

    /** The directory holding the broker's logs and metadata. */
    public Path logDir() {
        return logDir;
    }

    /** Admin client settings pointing at this broker (its internal listener when it has security). */
    public Properties clientProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, internalBootstrapServers());
        return properties;
    }

    /** Creates a topic with replication factor 1, or does nothing if it exists already. */
    public void createTopic(String topic, int partitions) {
        createTopic(topic, partitions, Map.of());
    }

    /**
     * Creates a topic with replication factor 1 and the given topic configuration (e.g.
     * {@code cleanup.policy}), or does nothing if it exists already.
     */
    public void createTopic(String topic, int partitions, Map<String, String> topicConfig) {
        withAdmin(
                admin -> {
                    try {
                        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(topicConfig)))
                                .all()
                                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            throw e;
                        }
                    }
                    return null;
                },
                "create topic " + topic);
    }

    /**
     * Grows a topic to {@code totalPartitions} partitions, and returns once the broker's metadata shows them (the
     * controller accepts the change before the broker serving metadata knows of it).
     */
    public void addPartitions(String topic, int totalPartitions) {
        withAdmin(
                admin -> {
                    admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(totalPartitions)))
                            .all()
                            .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
                    while (admin.describeTopics(List.of(topic))
                                            .allTopicNames()
                                            .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                                            .get(topic)
                                            .partitions()
                                            .size()
                                    < totalPartitions
                            && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    return null;
                },
                "add partitions to " + topic);
    }

    /** Deletes a topic. */
    public void deleteTopic(String topic) {
        withAdmin(
                admin -> admin.deleteTopics(List.of(topic)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                "delete topic " + topic);
    }

    interface AdminCall<T> {
        T call(Admin admin) throws Exception;
    }

    <T> T withAdmin(AdminCall<T> call, String what) {
        try (Admin admin = Admin.create(clientProperties())) {
            return call.call(admin);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Could not " + what + " on the embedded broker " + bootstrapServers() + ": " + e.getMessage(), e);
        }
    }

    private void prepareFirstStart() throws Exception {
        if (requestedLogDir != null) {
            logDir = requestedLogDir;
            Files.createDirectories(logDir);
            ownsLogDir = false;
        } else {
            logDir = Files.createTempDirectory("streamsplit-kafka-");
            ownsLogDir = true;
        }
        // each listener its own port: two probes in a row can be handed the same free port
        Set<Integer> taken = new HashSet<>();
        port = requestedPort != 0 ? requestedPort : BrokerSupport.freePortOtherThan(ports, taken);
        taken.add(port);
        controllerPort = BrokerSupport.freePortOtherThan(ports, taken);
        taken.add(controllerPort);
        internalPort = security != null ? BrokerSupport.freePortOtherThan(ports, taken) : 0;
        clusterId = Uuid.randomUuid().toString();
        BrokerSupport.format(logDir, clusterId, transactionVersion);
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (RuntimeException e) {
            LOG.warn("Could not shut down the embedded Kafka broker cleanly after a failed start", e);
            server = null;
        }
    }

    private String bootstrapServersOrNone() {
        return port == 0 ? "(no port chosen)" : "localhost:" + port;
    }

    /** Options for an {@link EmbeddedKafkaBroker}. */
    public static final class Builder {
        private int port;
        private @Nullable Path logDir;
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private @Nullable Short transactionVersion;
        private @Nullable BrokerSecurity security;
        private BrokerSupport.PortProbe ports = BrokerSupport::freePort;

        private Builder() {}

        /** How free ports are found (tests: a port taken between the probe and the bind). */
        Builder ports(BrokerSupport.PortProbe ports) {
            this.ports = ports;
            return this;
        }

        /**
         * Secures the client listener (SASL_PLAINTEXT, SSL or SASL_SSL, users, ACLs); see
         * {@link BrokerSecurity}. Without it the broker speaks PLAINTEXT to everyone.
         */
        public Builder security(BrokerSecurity security) {
            this.security = security;
            return this;
        }

        /** The client port; 0 (the default) picks a free one on first start and keeps it for restarts. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port is " + port + "; expected 0 (free port) or 1..65535");
            }
            this.port = port;
            return this;
        }

        /**
         * A log directory to use (and keep on {@link EmbeddedKafkaBroker#close()}); by default a temp
         * directory is created and deleted on close.
         */
        public Builder logDir(Path logDir) {
            this.logDir = logDir;
            return this;
        }

        /** Any broker setting (e.g. {@code log.retention.ms}); overrides the presets. */
        public Builder brokerProperty(String key, String value) {
            brokerProperties.put(key, value);
            return this;
        }

        /**
         * The transaction protocol to format the cluster with: 2 (Kafka 4's default, KIP-890) or
         * 1 (the older protocol), to tell whether a transaction problem comes from the protocol.
         */
        public Builder transactionVersion(int version) {
            if (version < 0 || version > 2) {
                throw new IllegalArgumentException("transaction version is " + version + "; expected 0, 1 or 2");
            }
            this.transactionVersion = (short) version;
            return this;
        }

        public EmbeddedKafkaBroker build() {
            return new EmbeddedKafkaBroker(this);
        }
    }
}
