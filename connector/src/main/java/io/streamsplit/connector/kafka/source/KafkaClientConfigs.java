package io.streamsplit.connector.kafka.source;

import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException.Setting;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

/**
 * What a source does with the Kafka client properties it is given: the ones it refuses, and the
 * consumer and admin settings it derives from them, with its own defaults.
 */
final class KafkaClientConfigs {

    private KafkaClientConfigs() {}

    /** Refuses a property the source cannot honour: offsets are committed on checkpoints, records read as bytes. */
    static void check(String key, String value) {
        if (key == null || value == null) {
            throw new InvalidKafkaSourceException(
                    Setting.PROPERTY,
                    key,
                    value,
                    "Kafka property " + key + " has value " + value + "; keys and values must not be null",
                    "a Kafka client property has no value",
                    "Give it a value or remove it.");
        }
        switch (key) {
            case ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG -> {
                if (Boolean.parseBoolean(value)) {
                    throw new InvalidKafkaSourceException(
                            Setting.PROPERTY,
                            key,
                            value,
                            "enable.auto.commit=true is not supported: offsets are committed when a Flink checkpoint"
                                    + " completes. Remove the property.",
                            "enable.auto.commit=true is not supported: offsets are committed when a Flink checkpoint"
                                    + " completes",
                            "Remove the property.");
                }
            }
            case ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG -> {
                if (!value.equals(ByteArrayDeserializer.class.getName())) {
                    throw new InvalidKafkaSourceException(
                            Setting.PROPERTY,
                            key,
                            value,
                            key + " is " + value + "; the source reads raw bytes and deserializes with its"
                                    + " KafkaRecordDeserializer / emitter. Remove the property and set a deserializer"
                                    + " on the source instead.",
                            "the source reads raw bytes and deserializes with its own deserializer or record emitter",
                            "Remove the property and set {DESERIALIZER} instead.");
                }
            }
            default -> {}
        }
    }

    /** The client id prefix: the one set, else {@code streamsplit-} and the source name in characters Kafka takes. */
    static String clientId(@Nullable String prefix, String sourceName) {
        return prefix != null ? prefix : "streamsplit-" + sourceName.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** The readers' consumer settings: the user's, then what the source needs, then its defaults. */
    static Properties consumer(Properties user, String clientId, OffsetResetStrategy reset) {
        Properties consumer = new Properties();
        consumer.putAll(user);
        consumer.setProperty(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer.setProperty(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, reset.consumerValue());
        consumer.setProperty(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        consumer.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // a reader still polling a just-deleted topic must not bring it back through broker auto-creation
        consumer.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        return consumer;
    }

    /** The enumerator's admin client settings: the user's that an admin client knows, and its client id. */
    static Properties admin(Properties user, String clientId) {
        Properties admin = new Properties();
        Set<String> adminKeys = AdminClientConfig.configNames();
        user.forEach((k, v) -> {
            if (adminKeys.contains(String.valueOf(k))) {
                admin.put(k, v);
            }
        });
        admin.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, clientId + "-enumerator");
        return admin;
    }

    /**
     * A dead-letter producer's settings: the user's that a producer knows, less a client id (its own, or
     * JMX names clash) and a transactional id (it runs no transactions), with {@code acks=all} by default.
     */
    static Properties deadLetterProducer(Properties user) {
        Properties producer = new Properties();
        Set<String> producerKeys = ProducerConfig.configNames();
        user.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (producerKeys.contains(key)
                    && !key.equals(ProducerConfig.CLIENT_ID_CONFIG)
                    && !key.equals(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
                producer.put(k, v);
            }
        });
        producer.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        return producer;
    }

    /** The consumer's isolation level: the enumerator's end offsets must mean what the readers read. */
    static IsolationLevel isolation(Properties consumer) {
        return IsolationLevel.valueOf(
                consumer.getProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG).toUpperCase(Locale.ROOT));
    }

    /**
     * The reset strategy: {@code auto.offset.reset} when given, else {@code configured}, else earliest;
     * both given and different is a conflict.
     */
    static OffsetResetStrategy resetStrategy(Properties user, @Nullable OffsetResetStrategy configured) {
        String fromProperties = user.getProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);
        if (fromProperties == null) {
            return configured != null ? configured : OffsetResetStrategy.EARLIEST;
        }
        OffsetResetStrategy parsed = OffsetResetStrategy.parse(fromProperties);
        if (configured != null && configured != parsed) {
            throw new InvalidKafkaSourceException(
                    Setting.OFFSET_RESET_STRATEGY,
                    configured,
                    "auto.offset.reset=" + fromProperties + " conflicts with setOffsetResetStrategy(" + configured
                            + "); keep one of them",
                    "the Kafka property auto.offset.reset=" + fromProperties
                            + " conflicts with the offset reset strategy " + configured,
                    "Keep one of them: remove auto.offset.reset, or set {OFFSET_RESET_STRATEGY} to the same value.");
        }
        return parsed;
    }
}
