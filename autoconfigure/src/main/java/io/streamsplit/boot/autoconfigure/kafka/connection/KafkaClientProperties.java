package io.streamsplit.boot.autoconfigure.kafka.connection;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.core.env.Environment;

/**
 * The Kafka client settings every source, sink, enumerator admin client and dead-letter producer
 * shares, in this order (later wins): the security settings of Spring Kafka
 * ({@code spring.kafka.properties.security.* / sasl.* / ssl.*}), the connection details' security
 * protocol, {@code streamsplit.kafka.properties}, then the connection details' SSL bundle as PEM
 * strings. Per-source and per-sink {@code properties} apply on top. Each value remembers the property
 * that set it, for error messages.
 */
public final class KafkaClientProperties {

    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();

    public KafkaClientProperties(
            Map<String, String> streamsplitProperties,
            StreamSplitKafkaConnectionDetails connection,
            Environment environment) {
        Binder.get(environment)
                .bind("spring.kafka.properties", Bindable.mapOf(String.class, String.class))
                .ifBound(spring -> spring.forEach((key, value) -> {
                    if (key.startsWith("security.") || key.startsWith("sasl.") || key.startsWith("ssl.")) {
                        put(key, value, "spring.kafka.properties." + key);
                    }
                }));
        String protocol = connection.getSecurityProtocol();
        if (protocol != null && !protocol.isBlank()) {
            put(
                    "security.protocol",
                    protocol,
                    connection instanceof PropertiesStreamSplitKafkaConnectionDetails props
                            ? props.securityProtocolOrigin()
                            : "the StreamSplitKafkaConnectionDetails bean");
        }
        streamsplitProperties.forEach((key, value) -> put(key, value, "streamsplit.kafka.properties." + key));
        SslBundle bundle = connection.getSslBundle();
        if (bundle != null) {
            applyBundle(
                    connection instanceof PropertiesStreamSplitKafkaConnectionDetails props
                            ? props.sslBundleOrigin()
                            : "the StreamSplitKafkaConnectionDetails bean",
                    bundle);
        }
    }

    /** The shared client settings, in the order they were applied. */
    public Map<String, String> common() {
        return values;
    }

    /** A client's full settings: {@code servers}, these shared settings, then its {@code own} properties. */
    public Properties forClient(String servers, Map<String, String> own) {
        Properties client = new Properties();
        client.putAll(values);
        client.putAll(own);
        client.put("bootstrap.servers", servers);
        return client;
    }

    /**
     * The entries of {@code client} that a client with these configuration {@code names} knows, e.g. a
     * producer's settings out of a consumer's: {@code only(consumer, ProducerConfig.configNames())}.
     */
    public static Properties only(Properties client, Set<String> names) {
        Properties known = new Properties();
        client.forEach((key, value) -> {
            if (names.contains(String.valueOf(key))) {
                known.put(key, value);
            }
        });
        return known;
    }

    /**
     * The settings of a short-lived admin client that checks something at startup: {@code client}'s
     * admin settings, its own {@code clientId}, and {@code timeout} for each call and request.
     */
    public static Properties checkingAdmin(Properties client, String clientId, Duration timeout) {
        Properties admin = only(client, AdminClientConfig.configNames());
        admin.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        return admin;
    }

    /** The Spring property that set {@code key}, e.g. {@code streamsplit.kafka.properties.sasl.jaas.config}. */
    public String origin(String key) {
        return origins.getOrDefault(key, "streamsplit.kafka.properties." + key);
    }

    private void applyBundle(String origin, SslBundle bundle) {
        Map<String, String> pem;
        try {
            pem = SslBundlePem.clientProperties(origin, bundle);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(
                    origin,
                    null,
                    e.getMessage(),
                    "Give the bundle a trust store (and a key store with a private key for client authentication).",
                    e);
        }
        pem.forEach((key, value) -> put(key, value, origin));
        if (!values.containsKey("security.protocol")) {
            boolean sasl = values.containsKey("sasl.mechanism") || values.containsKey("sasl.jaas.config");
            put("security.protocol", sasl ? "SASL_SSL" : "SSL", origin);
        }
    }

    private void put(String key, String value, String origin) {
        values.put(key, value);
        origins.put(key, origin);
    }
}
