package io.streamsplit.boot.autoconfigure.kafka.connection;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaClients;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * The Kafka client settings every source, sink, enumerator admin client and dead-letter producer
 * shares, by kind of client, in this order (later wins):
 *
 * <ol>
 *   <li>Spring Kafka's: {@code spring.kafka.properties.*} and {@code spring.kafka.jaas.*} for every client,
 *       then {@code spring.kafka.consumer.*} for consumers, {@code producer.*} for producers,
 *       {@code admin.*} for admin clients ({@link SpringKafkaSettings}), each only where that client knows
 *       the setting;
 *   <li>the connection details' security protocol;
 *   <li>{@code streamsplit.kafka.properties};
 *   <li>the connection details' SSL bundle, as PEM strings.
 * </ol>
 *
 * Per-source and per-sink {@code properties} apply on top. Each value remembers the property that set
 * it, for error messages. A {@code spring.kafka.*} setting that configures none of these clients is said
 * at start-up, once: a WARN, or an INFO when Spring Kafka is there to use it for clients of its own.
 */
public final class KafkaClientProperties implements KafkaClients {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClientProperties.class);

    private final Map<Kind, Map<String, String>> values = new EnumMap<>(Kind.class);
    private final Map<String, String> origins = new LinkedHashMap<>();
    private final SpringKafkaSettings spring;

    public KafkaClientProperties(
            Map<String, String> streamsplitProperties,
            StreamSplitKafkaConnectionDetails connection,
            Environment environment) {
        this.spring = new SpringKafkaSettings(environment);
        List<String> unknownToAll = new ArrayList<>();
        spring.common().keySet().forEach(key -> {
            if (ConsumerConfig.configNames().contains(key)
                    || ProducerConfig.configNames().contains(key)
                    || AdminClientConfig.configNames().contains(key)) {
                return;
            }
            unknownToAll.add("spring.kafka.properties." + key);
        });
        for (Kind client : Kind.values()) {
            Map<String, String> settings = new LinkedHashMap<>();
            values.put(client, settings);
            Map<String, String> fromSpring = new LinkedHashMap<>(spring.common());
            fromSpring.putAll(
                    switch (client) {
                        case CONSUMER -> spring.consumer();
                        case PRODUCER -> spring.producer();
                        case ADMIN -> spring.admin();
                    });
            fromSpring.forEach((key, value) -> {
                if (client.names().contains(key)) {
                    put(client, key, value, spring.origin(key));
                }
            });
            String protocol = connection.getSecurityProtocol();
            if (protocol != null && !protocol.isBlank()) {
                put(
                        client,
                        "security.protocol",
                        protocol,
                        connection instanceof PropertiesStreamSplitKafkaConnectionDetails props
                                ? props.securityProtocolOrigin()
                                : "the StreamSplitKafkaConnectionDetails bean");
            }
            streamsplitProperties.forEach(
                    (key, value) -> put(client, key, value, "streamsplit.kafka.properties." + key));
            SslBundle bundle = connection.getSslBundle();
            if (bundle != null) {
                applyBundle(
                        client,
                        connection instanceof PropertiesStreamSplitKafkaConnectionDetails props
                                ? props.sslBundleOrigin()
                                : "the StreamSplitKafkaConnectionDetails bean",
                        bundle);
            }
        }
        reportUnused(unknownToAll);
    }

    /** Spring Kafka's settings: the defaults they give a source or sink that does not set its own. */
    public SpringKafkaSettings spring() {
        return spring;
    }

    /** The shared settings of a {@code client}, in the order they were applied. */
    public Map<String, String> common(Kind client) {
        return Objects.requireNonNull(values.get(client), "every kind of client has its settings");
    }

    /** A {@code client}'s full settings: {@code servers}, these shared settings, then its {@code own} properties. */
    @Override
    public Properties forClient(Kind client, String servers, Map<String, String> own) {
        Properties settings = new Properties();
        settings.putAll(values.get(client));
        settings.putAll(own);
        settings.put("bootstrap.servers", servers);
        return settings;
    }

    /** The Spring property that set {@code key}, e.g. {@code streamsplit.kafka.properties.sasl.jaas.config}. */
    public String origin(String key) {
        return origins.getOrDefault(key, "streamsplit.kafka.properties." + key);
    }

    private void reportUnused(List<String> unknownToAll) {
        Set<String> unused = new TreeSet<>(spring.unused());
        unused.addAll(unknownToAll);
        if (unused.isEmpty()) {
            return;
        }
        boolean springKafka = ClassUtils.isPresent(
                "org.springframework.kafka.core.KafkaTemplate", KafkaClientProperties.class.getClassLoader());
        String line = "{} configure(s) none of StreamSplit's Kafka clients (a Flink job's sources and sinks read and"
                + " write bytes, commit offsets on checkpoints and have no listener or template){}; StreamSplit's own"
                + " settings are streamsplit.kafka.* (docs/configuration.md, 'Spring Kafka's settings')";
        if (springKafka) {
            LOG.info(line, unused, ", only Spring Kafka's own clients");
        } else {
            LOG.warn(line, unused, "");
        }
    }

    private void applyBundle(Kind client, String origin, SslBundle bundle) {
        Map<String, String> pem;
        try {
            pem = SslBundlePem.clientProperties(origin, bundle);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(
                    origin,
                    null,
                    String.valueOf(e.getMessage()),
                    "Give the bundle a trust store (and a key store with a private key for client authentication).",
                    e);
        }
        Map<String, String> settings = common(client);
        pem.forEach((key, value) -> put(client, key, value, origin));
        if (!settings.containsKey("security.protocol")) {
            boolean sasl = settings.containsKey("sasl.mechanism") || settings.containsKey("sasl.jaas.config");
            put(client, "security.protocol", sasl ? "SASL_SSL" : "SSL", origin);
        }
    }

    private void put(Kind client, String key, String value, String origin) {
        common(client).put(key, value);
        origins.put(key, origin);
    }
}
