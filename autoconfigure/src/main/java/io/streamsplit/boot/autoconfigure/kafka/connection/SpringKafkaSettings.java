package io.streamsplit.boot.autoconfigure.kafka.connection;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * What a Spring developer's {@code spring.kafka.*} settings mean for StreamSplit's sources and sinks,
 * which are Kafka clients of their own (a Flink job's, not Spring Kafka's): the client settings that
 * have a meaning for them, by the client they apply to, and the defaults they give a source or sink
 * that does not set its own ({@code consumer.group-id}, {@code consumer.auto-offset-reset},
 * {@code client-id}, {@code producer.transaction-id-prefix}). StreamSplit's own keys always win
 * ({@link KafkaClientProperties} layers them). What has no meaning here (deserializers, listener and
 * template settings, auto-commit, Kafka Streams) is {@link #unused()}, for one line at start-up.
 */
public final class SpringKafkaSettings {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("spring.kafka");

    /** Keys read elsewhere: where Kafka is and its security (connection details, SSL bundles). */
    private static final Set<String> CONNECTION = Set.of(
            "bootstrap-servers",
            "consumer.bootstrap-servers",
            "producer.bootstrap-servers",
            "admin.bootstrap-servers",
            "security.protocol",
            "consumer.security.protocol",
            "producer.security.protocol",
            "admin.security.protocol",
            "ssl.bundle");

    private final Map<String, String> common = new LinkedHashMap<>();
    private final Map<String, String> consumer = new LinkedHashMap<>();
    private final Map<String, String> producer = new LinkedHashMap<>();
    private final Map<String, String> admin = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();
    private final Set<String> used = new TreeSet<>();
    private final List<String> unused = new ArrayList<>();
    private final @Nullable String groupId;
    private final @Nullable String autoOffsetReset;
    private final @Nullable String consumerClientId;
    private final @Nullable String transactionIdPrefix;

    /** What {@code environment}'s {@code spring.kafka.*} settings say. */
    public SpringKafkaSettings(Environment environment) {
        Binder binder = Binder.get(environment);
        properties(binder, "spring.kafka.properties", common);
        properties(binder, "spring.kafka.consumer.properties", consumer);
        properties(binder, "spring.kafka.producer.properties", producer);
        properties(binder, "spring.kafka.admin.properties", admin);
        String clientId = text(binder, "client-id");
        consumerClientId = firstOf(text(binder, "consumer.client-id"), clientId);
        String adminClientId = firstOf(text(binder, "admin.client-id"), clientId);
        if (adminClientId != null) {
            put(admin, AdminClientConfig.CLIENT_ID_CONFIG, adminClientId, "spring.kafka.admin.client-id");
        }
        groupId = text(binder, "consumer.group-id");
        autoOffsetReset = text(binder, "consumer.auto-offset-reset");
        transactionIdPrefix = text(binder, "producer.transaction-id-prefix");
        typed(binder, "consumer.fetch-max-wait", consumer, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Unit.MILLIS);
        typed(binder, "consumer.fetch-min-size", consumer, ConsumerConfig.FETCH_MIN_BYTES_CONFIG, Unit.BYTES);
        typed(
                binder,
                "consumer.heartbeat-interval",
                consumer,
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                Unit.MILLIS);
        typed(binder, "consumer.isolation-level", consumer, ConsumerConfig.ISOLATION_LEVEL_CONFIG, Unit.LOWER_CASE);
        typed(binder, "consumer.max-poll-records", consumer, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Unit.TEXT);
        typed(binder, "producer.acks", producer, ProducerConfig.ACKS_CONFIG, Unit.TEXT);
        typed(binder, "producer.batch-size", producer, ProducerConfig.BATCH_SIZE_CONFIG, Unit.BYTES);
        typed(binder, "producer.buffer-memory", producer, ProducerConfig.BUFFER_MEMORY_CONFIG, Unit.BYTES);
        typed(binder, "producer.compression-type", producer, ProducerConfig.COMPRESSION_TYPE_CONFIG, Unit.LOWER_CASE);
        typed(binder, "producer.retries", producer, ProducerConfig.RETRIES_CONFIG, Unit.TEXT);
        jaas(binder);
        // producer.client-id has none: a sink's writers are one producer per subtask and transaction, and one id
        // for all of them would collide; the producers take Kafka's own ids
        for (String key : List.of(
                "client-id",
                "consumer.client-id",
                "admin.client-id",
                "consumer.group-id",
                "consumer.auto-offset-reset",
                "producer.transaction-id-prefix")) {
            if (text(binder, key) != null) {
                used.add(key);
            }
        }
        Set<String> handled = new TreeSet<>();
        CONNECTION.forEach(key -> handled.add(uniform(key)));
        used.forEach(key -> handled.add(uniform(key)));
        for (String name : names(environment)) {
            String key = name.substring("spring.kafka.".length());
            boolean known = handled.contains(uniform(key))
                    || key.startsWith("properties.")
                    || key.startsWith("consumer.properties.")
                    || key.startsWith("producer.properties.")
                    || key.startsWith("admin.properties.")
                    || key.startsWith("jaas.");
            if (!known) {
                unused.add(name);
            }
        }
    }

    /** Settings for every client: {@code spring.kafka.properties.*} and the JAAS login ({@code spring.kafka.jaas.*}). */
    Map<String, String> common() {
        return common;
    }

    /** Settings for consumers: {@code spring.kafka.consumer.*} that a source's consumer uses. */
    Map<String, String> consumer() {
        return consumer;
    }

    /** Settings for producers: {@code spring.kafka.producer.*} that a sink's producer uses. */
    Map<String, String> producer() {
        return producer;
    }

    /** Settings for admin clients: {@code spring.kafka.admin.*}. */
    Map<String, String> admin() {
        return admin;
    }

    /** The Spring property that set a client setting, e.g. {@code spring.kafka.consumer.max-poll-records}. */
    String origin(String key) {
        return origins.getOrDefault(key, "spring.kafka.properties." + key);
    }

    /** {@code spring.kafka.consumer.group-id}: the group of a source that names none. */
    public @Nullable String groupId() {
        return groupId;
    }

    /**
     * {@code spring.kafka.consumer.auto-offset-reset} ({@code earliest}, {@code latest}, {@code none}): where a
     * source without its own setting starts a partition that has no commit or lost its offset.
     */
    public @Nullable String autoOffsetReset() {
        return autoOffsetReset;
    }

    /** {@code spring.kafka.consumer.client-id}, else {@code spring.kafka.client-id}: a source's client id prefix. */
    public @Nullable String consumerClientId() {
        return consumerClientId;
    }

    /** {@code spring.kafka.producer.transaction-id-prefix}: the prefix of an exactly-once sink that names none. */
    public @Nullable String transactionIdPrefix() {
        return transactionIdPrefix;
    }

    /** The {@code spring.kafka.*} settings that configure nothing of StreamSplit's, as written. */
    public List<String> unused() {
        return List.copyOf(unused);
    }

    private enum Unit {
        TEXT,
        LOWER_CASE,
        MILLIS,
        BYTES
    }

    private void typed(Binder binder, String key, Map<String, String> into, String kafkaKey, Unit unit) {
        String property = "spring.kafka." + key;
        String value = switch (unit) {
            case MILLIS ->
                binder.bind(property, java.time.Duration.class)
                        .map(duration -> String.valueOf(duration.toMillis()))
                        .orElse(null);
            case BYTES ->
                binder.bind(property, DataSize.class)
                        .map(size -> String.valueOf(size.toBytes()))
                        .orElse(null);
            case LOWER_CASE ->
                binder.bind(property, String.class)
                        .map(text -> text.toLowerCase(Locale.ROOT).replace('-', '_'))
                        .orElse(null);
            case TEXT -> binder.bind(property, String.class).orElse(null);
        };
        if (value != null) {
            put(into, kafkaKey, value, property);
            used.add(key);
        }
    }

    /** {@code spring.kafka.jaas.*}: Spring Kafka sets a JVM-wide login; a job's clients need {@code sasl.jaas.config}. */
    private void jaas(Binder binder) {
        if (!binder.bind("spring.kafka.jaas.enabled", Boolean.class).orElse(false)) {
            return;
        }
        String module = binder.bind("spring.kafka.jaas.login-module", String.class)
                .orElse("com.sun.security.auth.module.Krb5LoginModule");
        String flag = binder.bind("spring.kafka.jaas.control-flag", String.class)
                .orElse("required")
                .toLowerCase(Locale.ROOT)
                .replace('_', '-');
        StringBuilder config = new StringBuilder(module).append(' ').append(flag);
        binder.bind("spring.kafka.jaas.options", Bindable.mapOf(String.class, String.class))
                .ifBound(options -> options.forEach((key, value) -> config.append(' ')
                        .append(key)
                        .append("=\"")
                        .append(value.replace("\"", "\\\""))
                        .append('"')));
        put(common, SaslConfigs.SASL_JAAS_CONFIG, config.append(';').toString(), "spring.kafka.jaas.*");
    }

    private void properties(Binder binder, String prefix, Map<String, String> into) {
        binder.bind(prefix, Bindable.mapOf(String.class, String.class))
                .ifBound(values -> values.forEach((key, value) -> put(into, key, value, prefix + "." + key)));
    }

    private void put(Map<String, String> into, String key, String value, String origin) {
        into.put(key, value);
        origins.put(key, origin);
    }

    private static @Nullable String text(Binder binder, String key) {
        String value = binder.bind("spring.kafka." + key, String.class)
                .map(String::trim)
                .orElse("");
        return value.isEmpty() ? null : value;
    }

    private static @Nullable String firstOf(@Nullable String first, @Nullable String second) {
        return first != null ? first : second;
    }

    /** A key without dashes and dots: {@code consumer.group-id}, an environment's {@code consumer.group.id}. */
    private static String uniform(String key) {
        return key.replace("-", "").replace(".", "").toLowerCase(Locale.ROOT);
    }

    /** Every {@code spring.kafka.*} property the environment has, in canonical form. */
    private static Set<String> names(Environment environment) {
        Set<String> names = new TreeSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.filter(ROOT::isAncestorOf).forEach(name -> names.add(name.toString()));
            }
        }
        return names;
    }
}
