package io.streamsplit.boot.autoconfigure.kafka.startup;

import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceProperties;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties.StartupCheckMode;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.kafka.format.KafkaFormats;
import io.streamsplit.boot.autoconfigure.kafka.format.RegistrySettings;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.config.PropertyChecks;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.boot.kafka.KafkaProblem;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.boot.kafka.ValueFormat;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Checks at startup, for every configured source and sink, what the job would otherwise find out
 * minutes later: that the Kafka cluster's host names resolve and a broker answers within
 * {@code streamsplit.kafka.startup-check.timeout}, that source topics exist (a pattern that matches
 * nothing is fine only while discovery can find topics later), and that sink and dead-letter topics
 * exist or are created ({@code streamsplit.kafka.create-topics.enabled}). One round of requests per
 * cluster, however many sources and sinks use it. A problem fails startup naming the property, the
 * value and the fix; with {@code startup-check.mode: warn} it is logged and kept for the health
 * indicator instead.
 */
public final class KafkaStartupCheck implements SmartInitializingSingleton {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaStartupCheck.class);

    private final StreamSplitKafkaProperties kafka;
    private final KafkaBootstrapServers bootstrapServers;
    private final KafkaClientProperties clientProperties;
    private final boolean jobEnabled;
    private final ConfigurableListableBeanFactory beanFactory;
    private final List<KafkaProblem> problems = new CopyOnWriteArrayList<>();
    private final Map<String, String> stepDeadLetterTopics;
    private final boolean dryRun;

    /**
     * @param dryRun {@code streamsplit.flink.dry-run}: missing topics are validated by the broker, not created
     * @param stepDeadLetterTopics the dead-letter topics of the pipelines' steps, by the property that names each
     */
    public KafkaStartupCheck(
            StreamSplitKafkaProperties kafka,
            KafkaBootstrapServers bootstrapServers,
            KafkaClientProperties clientProperties,
            boolean jobEnabled,
            boolean dryRun,
            ConfigurableListableBeanFactory beanFactory,
            Map<String, String> stepDeadLetterTopics) {
        this.dryRun = dryRun;
        this.beanFactory = beanFactory;
        this.stepDeadLetterTopics = Map.copyOf(stepDeadLetterTopics);
        this.kafka = kafka;
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = clientProperties;
        this.jobEnabled = jobEnabled;
    }

    /** The problems the check found and logged ({@code mode: warn}); empty when it found none or did not run. */
    public List<KafkaProblem> problems() {
        return List.copyOf(problems);
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (!jobEnabled || kafka.getStartupCheck().getMode() == StartupCheckMode.OFF) {
            return;
        }
        Duration timeout = PropertyChecks.positive(
                "streamsplit.kafka.startup-check.timeout",
                kafka.getStartupCheck().getTimeout());
        List<KafkaProblem> found = new ArrayList<>();
        for (KafkaStartupCheckCluster cluster : clusters()) {
            found.addAll(cluster.check(timeout, kafka.getCreateTopics(), dryRun));
        }
        if (usesSchemaRegistry()) {
            beanFactory
                    .getBean(KafkaFormats.class)
                    .registryUnreachable()
                    .ifPresent(reason -> found.add(new KafkaProblem(
                            RegistrySettings.PREFIX + "url",
                            String.valueOf(kafka.getSchemaRegistry().getUrl()),
                            "the schema registry of the Confluent wire formats does not answer: " + reason,
                            "Start the registry, or correct the URL (its base URL, e.g. http://registry:8081).")));
        }
        if (found.isEmpty()) {
            return;
        }
        if (kafka.getStartupCheck().getMode() == StartupCheckMode.FAIL) {
            KafkaProblem first = found.get(0);
            String more = found.size() == 1
                    ? ""
                    : " (and " + (found.size() - 1) + " more: "
                            + String.join(
                                    "; ",
                                    found.subList(1, found.size()).stream()
                                            .map(KafkaProblem::summary)
                                            .toList())
                            + ")";
            throw new InvalidStreamSplitConfigurationException(
                    first.property(),
                    first.value(),
                    first.problem() + more,
                    first.action()
                            + " To start while Kafka is not ready, set streamsplit.kafka.startup-check.mode=warn.");
        }
        for (KafkaProblem problem : found) {
            LOG.warn(
                    "Kafka startup check: {} = '{}': {}. {} (streamsplit.kafka.startup-check.mode=warn: starting anyway)",
                    problem.property(),
                    problem.value(),
                    problem.problem(),
                    problem.action());
        }
        problems.addAll(found);
    }

    /**
     * Checks, as at start-up, one topic a writer the job builds later writes to — a step's dead-letter topic set
     * in its code, which YAML does not name: refused (or created with {@code create-topics}) the same way, when
     * the job is built.
     *
     * @param property where the topic is set, for the report
     */
    public void checkWriter(String writer, String property, String topic) {
        if (!jobEnabled || kafka.getStartupCheck().getMode() == StartupCheckMode.OFF) {
            return;
        }
        String serversProperty = "streamsplit.kafka.bootstrap-servers";
        String servers = bootstrapServers.resolve(serversProperty, List.of());
        KafkaStartupCheckCluster cluster = cluster(
                new LinkedHashMap<>(),
                servers,
                bootstrapServers.origin(serversProperty, List.of()),
                clientProperties.forClient(KafkaClients.Kind.PRODUCER, servers, Map.of()));
        cluster.write(writer, property, topic);
        List<KafkaProblem> found = cluster.check(kafka.getStartupCheck().getTimeout(), kafka.getCreateTopics(), dryRun);
        if (found.isEmpty()) {
            return;
        }
        KafkaProblem first = found.get(0);
        if (kafka.getStartupCheck().getMode() == StartupCheckMode.FAIL) {
            throw new InvalidStreamSplitConfigurationException(
                    first.property(), first.value(), first.problem(), first.action());
        }
        LOG.warn(
                "Kafka startup check: {} = '{}': {}. {} (streamsplit.kafka.startup-check.mode=warn: starting anyway)",
                first.property(),
                first.value(),
                first.problem(),
                first.action());
        problems.addAll(found);
    }

    private boolean usesSchemaRegistry() {
        return kafka.getSources().values().stream().anyMatch(source -> confluent(source.getFormat()))
                || kafka.getSinks().values().stream().anyMatch(sink -> confluent(sink.getFormat()));
    }

    private static boolean confluent(@Nullable ValueFormat format) {
        return format == ValueFormat.AVRO_CONFLUENT || format == ValueFormat.JSON_SCHEMA_CONFLUENT;
    }

    /** An entry {@code <topic>-<partition>} of a specific-offsets map; one that is not is refused where it is read. */
    private static void partition(KafkaStartupCheckCluster cluster, String property, String entry) {
        org.apache.kafka.common.TopicPartition named = KafkaSourceProperties.partitionOf(entry);
        if (named != null) {
            cluster.partition(property + "." + entry, named.topic(), named.partition());
        }
    }

    /**
     * Every source as built (an application's own {@code StreamSplitKafkaSource} bean stands for itself,
     * not for the YAML entry it replaced), every sink and dead-letter writer, grouped by the cluster
     * (servers and security settings) they use.
     */
    private List<KafkaStartupCheckCluster> clusters() {
        Map<String, KafkaStartupCheckCluster> clusters = new LinkedHashMap<>();
        sources().forEach((name, built) -> {
            KafkaSourceProperties yaml = fromYaml(name) ? kafka.getSources().get(name) : null;
            String p = yaml != null ? KafkaSources.prefix(name) : "the source bean '" + name + "' ";
            Properties consumer = built.consumerProperties();
            String servers = consumer.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
            String serversProperty = yaml != null
                    ? bootstrapServers.origin(p + "bootstrap-servers", yaml.getBootstrapServers())
                    : p + "(bootstrap servers)";
            KafkaStartupCheckCluster cluster = cluster(clusters, servers, serversProperty, consumer);
            built.topics().forEach(topic -> cluster.read(name, p + "topics", topic));
            if (yaml != null) {
                yaml.getStartingSpecificOffsets()
                        .keySet()
                        .forEach(entry -> partition(cluster, p + "starting-specific-offsets", entry));
                yaml.getStoppingSpecificOffsets()
                        .keySet()
                        .forEach(entry -> partition(cluster, p + "stopping-specific-offsets", entry));
            }
            if (built.topicPattern() != null) {
                cluster.match(
                        name,
                        p + "pattern",
                        Pattern.compile(built.topicPattern()),
                        !built.discoveryInterval().isZero());
            }
            if (built.controlTopic() != null) {
                cluster.control(
                        yaml != null ? KafkaSources.CONTROL_TOPIC : p + "(control topic)", built.controlTopic());
            }
            if (yaml != null && yaml.getDeadLetterTopic() != null) {
                cluster.write(
                        "the dead letters of source '" + name + "'",
                        p + "dead-letter-topic",
                        yaml.getDeadLetterTopic());
            }
        });
        kafka.getSinks().forEach((name, sink) -> {
            String p = "streamsplit.kafka.sinks." + name + ".";
            String servers = bootstrapServers.resolve(p + "bootstrap-servers", sink.getBootstrapServers());
            Properties producer = clientProperties.forClient(KafkaClients.Kind.PRODUCER, servers, sink.getProperties());
            KafkaStartupCheckCluster cluster = cluster(
                    clusters,
                    servers,
                    bootstrapServers.origin(p + "bootstrap-servers", sink.getBootstrapServers()),
                    producer);
            if (sink.getTopic() != null && !sink.getTopic().isBlank()) {
                cluster.write("sink '" + name + "'", p + "topic", sink.getTopic());
            }
            if (sink.getDeliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
                cluster.transactions(
                        name,
                        p + "properties.transaction.timeout.ms",
                        KafkaSinkProperties.transactionTimeout(producer));
            }
        });
        if (!stepDeadLetterTopics.isEmpty()) {
            String property = "streamsplit.kafka.bootstrap-servers";
            String servers = bootstrapServers.resolve(property, List.of());
            KafkaStartupCheckCluster cluster = cluster(
                    clusters,
                    servers,
                    bootstrapServers.origin(property, List.of()),
                    clientProperties.forClient(KafkaClients.Kind.PRODUCER, servers, Map.of()));
            stepDeadLetterTopics.forEach(
                    (property2, topic) -> cluster.write("the dead letters of the pipelines' steps", property2, topic));
        }
        return List.copyOf(clusters.values());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Map<String, StreamSplitKafkaSource<?>> sources() {
        return new LinkedHashMap<>((Map) beanFactory.getBeansOfType(StreamSplitKafkaSource.class));
    }

    /** Whether bean {@code name} is the source the starter built from {@code streamsplit.kafka.sources.<name>}. */
    private boolean fromYaml(String name) {
        return kafka.getSources().containsKey(name)
                && beanFactory.containsBeanDefinition(name)
                && String.valueOf(beanFactory.getBeanDefinition(name).getDescription())
                        .equals(KafkaSourceFactory.BEAN_DESCRIPTION + name);
    }

    private static KafkaStartupCheckCluster cluster(
            Map<String, KafkaStartupCheckCluster> clusters, String servers, String serversProperty, Properties client) {
        Properties admin = KafkaClients.only(client, AdminClientConfig.configNames());
        admin.remove(AdminClientConfig.CLIENT_ID_CONFIG);
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        String key = new TreeMap<>(admin).toString();
        return clusters.computeIfAbsent(key, k -> new KafkaStartupCheckCluster(servers, serversProperty, admin));
    }
}
