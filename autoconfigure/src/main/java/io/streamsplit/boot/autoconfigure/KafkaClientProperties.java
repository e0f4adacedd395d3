package io.streamsplit.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;

/**
 * The Kafka client settings every source, sink, enumerator admin client and dead-letter producer
 * shares, in this order (later wins): the security settings of Spring Kafka
 * ({@code spring.kafka.security.protocol}, {@code spring.kafka.properties.security.* / sasl.* / ssl.*}),
 * {@code streamsplit.kafka.properties}, then the SSL bundle ({@code streamsplit.kafka.ssl-bundle}, else
 * {@code spring.kafka.ssl.bundle}) as PEM strings. Per-source and per-sink {@code properties} apply on
 * top. Each value remembers the property that set it, for error messages.
 */
final class KafkaClientProperties {

    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();

    KafkaClientProperties(StreamSplitProperties.Kafka kafka, Environment environment, ObjectProvider<SslBundles> bundles) {
        Binder binder = Binder.get(environment);
        binder.bind("spring.kafka.properties", Bindable.mapOf(String.class, String.class)).ifBound(spring ->
                spring.forEach((key, value) -> {
                    if (key.startsWith("security.") || key.startsWith("sasl.") || key.startsWith("ssl.")) {
                        put(key, value, "spring.kafka.properties." + key);
                    }
                }));
        String springProtocol = environment.getProperty("spring.kafka.security.protocol");
        if (springProtocol != null) {
            put("security.protocol", springProtocol, "spring.kafka.security.protocol");
        }
        kafka.getProperties().forEach((key, value) -> put(key, value, "streamsplit.kafka.properties." + key));
        String bundleProperty = kafka.getSslBundle() != null ? "streamsplit.kafka.ssl-bundle" : "spring.kafka.ssl.bundle";
        String bundleName = kafka.getSslBundle() != null ? kafka.getSslBundle() : environment.getProperty(bundleProperty);
        if (bundleName != null && !bundleName.isBlank()) {
            applyBundle(bundleProperty, bundleName, bundles.getIfAvailable());
        }
    }

    /** The shared client settings, in the order they were applied. */
    Map<String, String> common() {
        return values;
    }

    /** A client's full settings: {@code servers}, these shared settings, then its {@code own} properties. */
    java.util.Properties forClient(String servers, Map<String, String> own) {
        java.util.Properties client = new java.util.Properties();
        client.putAll(values);
        client.putAll(own);
        client.put("bootstrap.servers", servers);
        return client;
    }

    /** The Spring property that set {@code key}, e.g. {@code streamsplit.kafka.properties.sasl.jaas.config}. */
    String origin(String key) {
        return origins.getOrDefault(key, "streamsplit.kafka.properties." + key);
    }

    private void applyBundle(String property, String name, SslBundles bundles) {
        if (bundles == null) {
            throw new InvalidStreamSplitConfigurationException(property, name, "no SslBundles bean is available",
                    "Define the bundle under spring.ssl.bundle (Spring Boot's SSL auto-configuration provides the bean).");
        }
        Map<String, String> pem;
        try {
            pem = SslBundlePem.clientProperties(name, bundles.getBundle(name));
        } catch (NoSuchSslBundleException e) {
            throw new InvalidStreamSplitConfigurationException(property, name, "there is no SSL bundle named '" + name
                    + "'", "Use one of " + bundles.getBundleNames() + ", or define spring.ssl.bundle.pem." + name
                    + ".* (or spring.ssl.bundle.jks." + name + ".*).", e);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(property, name, e.getMessage(),
                    "Give the bundle a trust store (and a key store with a private key for client authentication).", e);
        }
        pem.forEach((key, value) -> put(key, value, property + " (bundle '" + name + "')"));
        if (!values.containsKey("security.protocol")) {
            boolean sasl = values.containsKey("sasl.mechanism") || values.containsKey("sasl.jaas.config");
            put("security.protocol", sasl ? "SASL_SSL" : "SSL", property + " (bundle '" + name + "')");
        }
    }

    private void put(String key, String value, String origin) {
        values.put(key, value);
        origins.put(key, origin);
    }
}
