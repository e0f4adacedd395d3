package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException;
import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException.Setting;
import java.util.Locale;
import java.util.Map;

/**
 * The one table from the connector builder's settings to the YAML properties of a source, and the
 * translation of a rule the builder rejected into the starter's failure report.
 */
final class SourcePropertyPaths {

    private final String prefix;
    private final Map<String, String> ownProperties;
    private final KafkaClientProperties clientProperties;

    /**
     * @param prefix {@code streamsplit.kafka.sources.<name>.}
     * @param ownProperties the source's own client {@code properties}
     * @param clientProperties the shared client properties (they know which property set each key)
     */
    SourcePropertyPaths(String prefix, Map<String, String> ownProperties, KafkaClientProperties clientProperties) {
        this.prefix = prefix;
        this.ownProperties = ownProperties;
        this.clientProperties = clientProperties;
    }

    /**
     * The YAML key (under the source) that sets {@code setting}: the setting's name in kebab case
     * ({@code GROUP_ID} is {@code group-id}), except where the YAML names it otherwise.
     */
    static String key(Setting setting) {
        return switch (setting) {
            case NAME -> "";
            case TOPICS, PARTITIONS -> "topics";
            case TOPIC_PATTERN -> "pattern";
            case OFFSET_RESET_STRATEGY -> "on-offset-out-of-range";
            case METADATA_TIMEOUT -> "properties.default.api.timeout.ms";
            case CONTROL_TOPIC -> KafkaSources.CONTROL_TOPIC; // shared by all sources
            case PROPERTY -> "properties";
            case OPTION -> ""; // each declared option is its own key: path(failure) has it
            default -> setting.name().toLowerCase(Locale.ROOT).replace('_', '-');
        };
    }

    /** The full property path of {@code setting}. */
    String path(Setting setting) {
        String key = key(setting);
        if (setting == Setting.CONTROL_TOPIC) {
            return key;
        }
        return key.isEmpty() ? prefix.substring(0, prefix.length() - 1) : prefix + key;
    }

    /** The full property path the builder's failure is about. */
    String path(InvalidKafkaSourceException failure) {
        if (failure.setting() == Setting.OPTION && failure.optionKey() != null) {
            return prefix + failure.optionKey(); // a declared setting's key is its YAML key
        }
        if (failure.setting() == Setting.PROPERTY && failure.propertyKey() != null) {
            String key = failure.propertyKey();
            Object own = ownProperties.get(key);
            return own != null && own.equals(failure.value())
                    ? prefix + "properties." + key
                    : clientProperties.origin(key);
        }
        return path(failure.setting());
    }

    /** The builder's failure as the starter's report: property, value, problem and action in YAML terms. */
    InvalidStreamSplitConfigurationException report(InvalidKafkaSourceException failure) {
        return new InvalidStreamSplitConfigurationException(
                path(failure), failure.value(), failure.problem(this::path), failure.action(this::path), failure);
    }
}
