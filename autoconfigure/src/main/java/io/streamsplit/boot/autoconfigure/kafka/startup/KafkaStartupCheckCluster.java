package io.streamsplit.boot.autoconfigure.kafka.startup;

import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties.CreateTopics;
import io.streamsplit.boot.config.NearestNames;
import io.streamsplit.boot.kafka.BoundedAdmin;
import io.streamsplit.boot.kafka.KafkaListeners;
import io.streamsplit.boot.kafka.KafkaProblem;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka cluster as the startup check sees it: its servers, the property that set them, and the
 * topics the sources and sinks using it read, match or write. {@link #check} asks the cluster once.
 */
final class KafkaStartupCheckCluster {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaStartupCheckCluster.class);
    private static final String TRANSACTION_MAX_TIMEOUT = "transaction.max.timeout.ms";

    private record Use(String user, String property, String topic, boolean write) {}

    private record Match(String source, String property, Pattern pattern, boolean discovery) {}

    private record Transactions(String sink, String property, Duration timeout) {}

    private record Partition(String property, String topic, int partition) {}

    private final String servers;
    private final String serversProperty;
    private final Properties admin;
    private final List<Use> uses = new ArrayList<>();
    private final List<Match> matches = new ArrayList<>();
    private final List<Transactions> transactions = new ArrayList<>();
    private final List<Partition> partitions = new ArrayList<>();
    /** Control topic → the property that names it; created at startup when missing. */
    private final Map<String, String> controlTopics = new LinkedHashMap<>();

    KafkaStartupCheckCluster(String servers, String serversProperty, Properties admin) {
        this.servers = servers;
        this.serversProperty = serversProperty;
        this.admin = admin;
    }

    void read(String source, String property, String topic) {
        uses.add(new Use("source '" + source + "'", property, topic, false));
    }

    void write(String writer, String property, String topic) {
        uses.add(new Use(writer, property, topic, true));
    }

    void match(String source, String property, Pattern pattern, boolean discovery) {
        matches.add(new Match(source, property, pattern, discovery));
    }

    /** The control topic of a source: pause, resume and rate commands; created (compacted, one partition) if missing. */
    void control(String property, String topic) {
        controlTopics.putIfAbsent(topic, property);
    }

    /** A partition a source's settings name ({@code property}: its entry): the topic must have it. */
    void partition(String property, String topic, int partition) {
        partitions.add(new Partition(property, topic, partition));
    }

    /** An exactly-once sink: its transactions must not outlive what the brokers allow. */
    void transactions(String sink, String property, Duration timeout) {
        transactions.add(new Transactions(sink, property, timeout));
    }

    /**
     * Asks the cluster once; creates missing sink topics when allowed (in a dry run only asks the broker to validate
     * their creation); returns what keeps a source or sink from working.
     */
    List<KafkaProblem> check(Duration timeout, CreateTopics create, boolean dryRun) {
        List<KafkaProblem> problems = new ArrayList<>();
        List<String> unresolved = unresolvedHosts();
        if (!unresolved.isEmpty()) {
            problems.add(new KafkaProblem(
                    serversProperty,
                    servers,
                    (unresolved.size() == 1
                                    ? "host '" + unresolved.get(0) + "' does not resolve"
                                    : "hosts " + unresolved + " do not resolve")
                            + " (no DNS entry)",
                    "Fix the host name in " + serversProperty + ", or point it at a reachable Kafka cluster."));
            if (unresolved.size() == hosts().size()) {
                return problems;
            }
        }
        if (KafkaListeners.nothingListens(servers)) {
            // refused at once: no need to wait the timeout meant for a slow broker
            problems.add(new KafkaProblem(
                    serversProperty,
                    servers,
                    "nothing listens at " + servers + " (the connection was refused)",
                    "Start Kafka there, or fix " + serversProperty + " (host:port of a broker's listener)."));
            return problems;
        }
        Properties settings = new Properties();
        settings.putAll(admin);
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "streamsplit-startup-check");
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        // a handful of connection attempts within the timeout, not Kafka's 50 ms retries (and their WARN lines)
        settings.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 500);
        settings.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        try (BoundedAdmin bounded = BoundedAdmin.create(settings)) {
            Admin client = bounded.admin();
            Set<String> topics;
            DescribeClusterResult cluster = client.describeCluster();
            try {
                cluster.clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                topics = client.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                problems.add(unreachable(timeout));
                return problems;
            } catch (ExecutionException e) {
                // the client's own api timeout usually expires first
                problems.add(
                        e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException
                                ? unreachable(timeout)
                                : failed(e.getCause() != null ? e.getCause() : e));
                return problems;
            }
            problems.addAll(topics(client, topics, timeout, create, dryRun));
            problems.addAll(partitions(client, topics, timeout));
            problems.addAll(transactionTimeouts(client, cluster, timeout));
        } catch (KafkaException e) {
            problems.add(failed(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return problems;
    }

    /**
     * An offset for a partition the topic does not have ({@code orders-17} of six) would never be used: the
     * source would start every real partition from its fallback, silently. A topic that does not exist is
     * reported by {@link #topics}; one this client may not describe is not checked.
     */
    private List<KafkaProblem> partitions(Admin client, Set<String> existing, Duration timeout)
            throws InterruptedException {
        List<String> named = partitions.stream()
                .map(Partition::topic)
                .filter(existing::contains)
                .distinct()
                .toList();
        if (named.isEmpty()) {
            return List.of();
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        try {
            client.describeTopics(named)
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((topic, description) ->
                            counts.put(topic, description.partitions().size()));
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug(
                    "Kafka at {}: could not describe {} to check the partitions named: {}",
                    servers,
                    named,
                    e.toString());
            return List.of();
        }
        List<KafkaProblem> problems = new ArrayList<>();
        for (Partition p : partitions) {
            Integer count = counts.get(p.topic());
            if (count != null && p.partition() >= count) {
                problems.add(new KafkaProblem(
                        p.property(),
                        p.topic() + "-" + p.partition(),
                        "topic '" + p.topic() + "' on Kafka at " + servers + " has " + count + " partition"
                                + (count == 1 ? "" : "s") + " (0–" + (count - 1) + "), not partition " + p.partition()
                                + "; the offset would never be used",
                        "Name a partition from " + p.topic() + "-0 to " + p.topic() + "-" + (count - 1)
                                + ", or remove the entry."));
            }
        }
        return problems;
    }

    /**
     * A sink whose {@code transaction.timeout.ms} exceeds a broker's {@code transaction.max.timeout.ms}
     * fails its first transaction at runtime (InvalidTxnTimeoutException, job restarting for good); say
     * so now. A cluster that does not let this client describe broker configs is not checked.
     */
    private List<KafkaProblem> transactionTimeouts(Admin client, DescribeClusterResult cluster, Duration timeout)
            throws InterruptedException {
        if (transactions.isEmpty()) {
            return List.of();
        }
        long max = Long.MAX_VALUE;
        String broker = null;
        try {
            List<ConfigResource> brokers = new ArrayList<>();
            for (Node node : cluster.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                brokers.add(new ConfigResource(ConfigResource.Type.BROKER, node.idString()));
            }
            for (Map.Entry<ConfigResource, Config> config : client.describeConfigs(brokers)
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .entrySet()) {
                ConfigEntry entry = config.getValue().get(TRANSACTION_MAX_TIMEOUT);
                if (entry != null && entry.value() != null && Long.parseLong(entry.value()) < max) {
                    max = Long.parseLong(entry.value());
                    broker = config.getKey().name();
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug(
                    "Kafka at {}: could not read {} to check the sinks' transaction timeouts: {}",
                    servers,
                    TRANSACTION_MAX_TIMEOUT,
                    e.toString());
            return List.of();
        }
        List<KafkaProblem> problems = new ArrayList<>();
        for (Transactions sink : transactions) {
            if (sink.timeout().toMillis() > max) {
                problems.add(new KafkaProblem(
                        sink.property(),
                        String.valueOf(sink.timeout().toMillis()),
                        "exactly-once sink '" + sink.sink() + "' opens transactions with a timeout of "
                                + sink.timeout().toMillis() + " ms, but broker " + broker + " of Kafka at " + servers
                                + " allows at most " + max + " ms (" + TRANSACTION_MAX_TIMEOUT
                                + "); its first transaction would fail and the job would restart until it gives up",
                        "Set " + sink.property() + " to at most " + max + ", or raise " + TRANSACTION_MAX_TIMEOUT
                                + " on the brokers."));
            }
        }
        return problems;
    }

    private List<KafkaProblem> topics(
            Admin client, Set<String> existing, Duration timeout, CreateTopics create, boolean dryRun)
            throws InterruptedException {
        List<KafkaProblem> problems = new ArrayList<>();
        Map<String, Use> toCreate = new LinkedHashMap<>();
        for (Use use : uses) {
            if (existing.contains(use.topic())) {
                continue;
            }
            if (use.write() && create.isEnabled()) {
                toCreate.putIfAbsent(use.topic(), use);
            } else if (use.write()) {
                problems.add(new KafkaProblem(
                        use.property(),
                        use.topic(),
                        "topic '" + use.topic() + "' of "
                                + use.user() + " does not exist on Kafka at " + servers
                                + "; writing to it would block every"
                                + " checkpoint until the producer gives up and the job restarts",
                        "Create the topic, or set"
                                + " streamsplit.kafka.create-topics.enabled=true to create sink and dead-letter topics at"
                                + " startup (partitions: streamsplit.kafka.create-topics.partitions)."
                                + nearest(use, existing)));
            } else {
                problems.add(new KafkaProblem(
                        use.property(),
                        use.topic(),
                        "topic '" + use.topic() + "' of " + use.user() + " does not exist on Kafka at " + servers,
                        "Create the topic, or fix the name." + nearest(use, existing)));
            }
        }
        for (Match match : matches) {
            if (existing.stream()
                    .anyMatch(topic -> match.pattern().matcher(topic).matches())) {
                continue;
            }
            if (match.discovery()) {
                LOG.warn(
                        "Source '{}': {} = '{}' matches no topic on Kafka at {} yet; partition discovery reads"
                                + " matching topics once they are created",
                        match.source(),
                        match.property(),
                        match.pattern(),
                        servers);
            } else {
                problems.add(new KafkaProblem(
                        match.property(),
                        match.pattern().pattern(),
                        "the pattern matches no"
                                + " topic on Kafka at " + servers + " and partition discovery is off, so source '"
                                + match.source() + "' would never read anything",
                        "Fix the pattern, or set "
                                + match.property().replace(".pattern", ".discovery-interval") + " (e.g. 30s) so topics"
                                + " created later are found."));
            }
        }
        List<Creation> creations = new ArrayList<>();
        toCreate.forEach((topic, use) -> creations.add(new Creation(
                new NewTopic(
                        topic,
                        Optional.ofNullable(create.getPartitions()),
                        Optional.ofNullable(create.getReplicationFactor())),
                use.property(),
                "topic",
                "for " + use.user() + ", streamsplit.kafka.create-topics.enabled=true",
                "Create it yourself, or check"
                        + " streamsplit.kafka.create-topics.partitions/replication-factor against the cluster.",
                "Create it yourself")));
        // the control topic is StreamSplit's own: naming it asks for it, whatever create-topics.enabled says;
        // one partition keeps the order of commands, compaction keeps each source's latest
        controlTopics.forEach((topic, property) -> {
            if (!existing.contains(topic) && !toCreate.containsKey(topic)) {
                creations.add(new Creation(
                        new NewTopic(topic, Optional.of(1), Optional.ofNullable(create.getReplicationFactor()))
                                .configs(Map.of("cleanup.policy", "compact")),
                        property,
                        "control topic",
                        property,
                        "Create it (one partition, cleanup.policy=compact), or remove " + property
                                + " to run without pause, resume and throttle from Actuator.",
                        "Create it yourself (one partition, cleanup.policy=compact)"));
            }
        });
        if (!creations.isEmpty()) {
            problems.addAll(create(client, creations, timeout, dryRun));
        }
        return problems;
    }

    /**
     * A topic the startup check creates when it is missing.
     *
     * @param kind "topic" or "control topic", for messages
     * @param reason why it is created, for the log
     * @param failedAction what to do when the broker refuses it
     * @param createYourself the start of what to do when creating it takes too long
     */
    private record Creation(
            NewTopic topic, String property, String kind, String reason, String failedAction, String createYourself) {}

    /**
     * Creates the topics in one request; a topic created meanwhile by someone else is fine. A dry run
     * ({@code streamsplit.flink.dry-run}) sends the same request with Kafka's {@code validateOnly}: the broker checks
     * it (permissions, partitions, replication factor) and creates nothing.
     */
    private List<KafkaProblem> create(Admin client, List<Creation> creations, Duration timeout, boolean dryRun) {
        Map<String, Creation> byTopic = new LinkedHashMap<>();
        creations.forEach(creation -> byTopic.put(creation.topic().name(), creation));
        List<KafkaProblem> problems = new ArrayList<>();
        client.createTopics(
                        creations.stream().map(Creation::topic).toList(),
                        new CreateTopicsOptions().validateOnly(dryRun))
                .values()
                .forEach((topic, future) -> {
                    Creation creation = Objects.requireNonNull(byTopic.get(topic), topic);
                    try {
                        future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                        LOG.info(
                                dryRun
                                        ? "Dry run: would create {} '{}' on Kafka at {} ({}); the broker validated the"
                                                + " request and created nothing"
                                        : "Created {} '{}' on Kafka at {} ({})",
                                creation.kind(),
                                topic,
                                servers,
                                creation.reason());
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            problems.add(new KafkaProblem(
                                    creation.property(),
                                    topic,
                                    creation.kind() + " '" + topic + "' does not exist and could not be created: "
                                            + (e.getCause() != null
                                                    ? e.getCause().getMessage()
                                                    : e.getMessage()),
                                    creation.failedAction()));
                        }
                    } catch (TimeoutException e) {
                        problems.add(new KafkaProblem(
                                creation.property(),
                                topic,
                                "creating " + creation.kind() + " '" + topic + "' did not finish within "
                                        + timeout.toMillis() + " ms",
                                creation.createYourself() + ", or raise streamsplit.kafka.startup-check.timeout."));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        return problems;
    }

    private KafkaProblem unreachable(Duration timeout) {
        return new KafkaProblem(
                serversProperty,
                servers,
                "no Kafka broker answered at " + servers + " within " + timeout.toMillis()
                        + " ms (streamsplit.kafka.startup-check.timeout)",
                "Start Kafka there, or fix " + serversProperty + " (host:port of a broker's listener).");
    }

    private KafkaProblem failed(Throwable failure) {
        if (failure instanceof AuthenticationException) {
            return new KafkaProblem(
                    serversProperty,
                    servers,
                    "Kafka at " + servers + " rejected the client's" + " credentials: " + failure.getMessage(),
                    "Check security.protocol, sasl.* and ssl.* in"
                            + " streamsplit.kafka.properties (the values are not shown here).");
        }
        return new KafkaProblem(
                serversProperty,
                servers,
                "Kafka at " + servers + " could not be asked for its" + " topics: " + failure,
                "Check " + serversProperty + " and the client properties.");
    }

    /** " Topics with a similar name: [orders]." or nothing. */
    private static String nearest(Use use, Set<String> existing) {
        List<String> similar = NearestNames.nearest(
                use.topic(),
                existing.stream().filter(topic -> !topic.startsWith("__")).toList(),
                2,
                3);
        return similar.isEmpty() ? "" : " Topics with a similar name: " + similar + ".";
    }

    private List<String> hosts() {
        List<String> hosts = new ArrayList<>();
        for (String server : servers.split(",")) {
            String trimmed = server.trim();
            int colon = trimmed.lastIndexOf(':');
            hosts.add(colon > 0 ? trimmed.substring(0, colon).replace("[", "").replace("]", "") : trimmed);
        }
        return hosts;
    }

    private List<String> unresolvedHosts() {
        List<String> unresolved = new ArrayList<>();
        for (String host : hosts()) {
            try {
                InetAddress.getByName(host);
            } catch (UnknownHostException e) {
                unresolved.add(host);
            }
        }
        return unresolved;
    }
}
