package io.streamsplit.boot.autoconfigure;

import java.time.Duration;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSourceBuilder;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Builds the connector's {@link StreamSplitKafkaSource} from {@code streamsplit.kafka.sources.<name>}.
 * Every check names its property; the connector's builder does the rest (this class maps, it does
 * not re-implement the builder).
 */
final class KafkaSourceFactory {

    private final StreamSplitProperties.Kafka kafka;
    private final KafkaBootstrapServers bootstrapServers;
    private final UserBeans beans;
    private final KafkaClientProperties clientProperties;

    KafkaSourceFactory(StreamSplitProperties.Kafka kafka, KafkaClientProperties clientProperties,
            KafkaBootstrapServers bootstrapServers, UserBeans beans) {
        this.kafka = kafka;
        this.clientProperties = clientProperties;
        this.bootstrapServers = bootstrapServers;
        this.beans = beans;
    }

    static String prefix(String name) {
        return "streamsplit.kafka.sources." + name + ".";
    }

    KafkaSourceProperties properties(String name) {
        KafkaSourceProperties source = kafka.getSources().get(name);
        if (source == null) {
            throw new InvalidStreamSplitConfigurationException("streamsplit.kafka.sources", name,
                    "no source named '" + name + "' is configured",
                    "Use one of " + kafka.getSources().keySet() + ", or add streamsplit.kafka.sources." + name + ".topics.");
        }
        return source;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    StreamSplitKafkaSource<?> create(String name) {
        KafkaSourceProperties source = properties(name);
        String p = prefix(name);
        StreamSplitKafkaSourceBuilder builder = StreamSplitKafkaSource.builder().setName(name);
        subscribe(builder, source, p);
        validate(source, p);
        String servers = bootstrapServers.resolve(p + "bootstrap-servers", source.getBootstrapServers());
        builder.setBootstrapServers(servers);
        clientProperties.common().forEach((key, value) -> setProperty(builder, clientProperties.origin(key), key, value));
        source.getProperties().forEach((key, value) -> setProperty(builder, p + "properties." + key, key, value));
        Properties client = clientProperties.forClient(servers, source.getProperties());
        if (kafka.isVerifyAccess() && KafkaAccessCheck.secured(client)) {
            KafkaAccessCheck.checkSource(name, client, source.getTopics().isEmpty() ? null : source.getTopics(),
                    source.getGroupId(), source.getProperties().containsKey("sasl.jaas.config")
                            ? p + "properties.sasl.jaas.config" : clientProperties.origin("sasl.jaas.config"));
        }
        if (source.getGroupId() != null) {
            builder.setGroupId(source.getGroupId());
        }
        builder.setStartingOffsets(startingOffsets(source, p));
        builder.setOffsetResetStrategy(source.getOffsetResetStrategy());
        switch (source.getStoppingOffsets()) {
            case NONE -> {
            }
            case LATEST -> builder.setBounded(StoppingOffsets.latest());
            case TIMESTAMP -> builder.setBounded(StoppingOffsets.timestamp(
                    required(p + "stopping-timestamp", source.getStoppingTimestamp(),
                            "stopping-offsets is 'timestamp'").toEpochMilli()));
        }
        if (source.getDiscoveryInterval() != null) {
            builder.setPartitionDiscoveryInterval(
                    FlinkConfigurationMapper.positive(p + "discovery-interval", source.getDiscoveryInterval()));
        }
        if (source.getCommitOffsets() != null) {
            builder.setCommitOffsetsOnCheckpoint(source.getCommitOffsets());
        }
        if (source.getClientIdPrefix() != null) {
            builder.setClientIdPrefix(source.getClientIdPrefix());
        }
        builder.setBadRecordPolicy(source.getBadRecordPolicy());
        deserializer(builder, source, p);
        try {
            return builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new InvalidStreamSplitConfigurationException("streamsplit.kafka.sources." + name, name,
                    e.getMessage(), "Fix the settings of source '" + name + "' as the message says.", e);
        }
    }

    /** The watermark strategy of the source, from {@code watermarks.*}. */
    <T> WatermarkStrategy<T> watermarks(String name) {
        KafkaSourceProperties.Watermarks watermarks = properties(name).getWatermarks();
        String p = prefix(name) + "watermarks.";
        WatermarkStrategy<T> strategy = switch (watermarks.getStrategy()) {
            case NONE -> WatermarkStrategy.noWatermarks();
            case MONOTONOUS -> WatermarkStrategy.forMonotonousTimestamps();
            case BOUNDED_OUT_OF_ORDERNESS -> WatermarkStrategy.forBoundedOutOfOrderness(
                    FlinkConfigurationMapper.positive(p + "max-out-of-orderness", watermarks.getMaxOutOfOrderness()));
        };
        if (watermarks.getIdleTimeout() != null) {
            Duration idle = FlinkConfigurationMapper.positive(p + "idle-timeout", watermarks.getIdleTimeout());
            strategy = strategy.withIdleness(idle);
        }
        return strategy;
    }

    private static void subscribe(StreamSplitKafkaSourceBuilder<?> builder, KafkaSourceProperties source, String p) {
        boolean hasTopics = !source.getTopics().isEmpty();
        boolean hasPattern = source.getPattern() != null && !source.getPattern().isBlank();
        if (hasTopics && hasPattern) {
            throw new InvalidStreamSplitConfigurationException(p + "pattern", source.getPattern(),
                    "both topics " + source.getTopics() + " and a pattern are set",
                    "Keep one: remove " + p + "topics or " + p + "pattern.");
        }
        if (!hasTopics && !hasPattern) {
            throw new InvalidStreamSplitConfigurationException(p + "topics", null, "the source reads no topic",
                    "Set " + p + "topics (e.g. orders) or " + p + "pattern (e.g. orders-.*).");
        }
        if (hasTopics) {
            if (source.getTopics().stream().anyMatch(t -> t == null || t.isBlank())) {
                throw new InvalidStreamSplitConfigurationException(p + "topics", source.getTopics(),
                        "a topic name is blank", "Remove the blank entry.");
            }
            builder.setTopics(source.getTopics());
            return;
        }
        try {
            builder.setTopicPattern(Pattern.compile(source.getPattern()));
        } catch (PatternSyntaxException e) {
            throw new InvalidStreamSplitConfigurationException(p + "pattern", source.getPattern(),
                    "not a valid regular expression: " + e.getDescription(), "Fix the expression, e.g. orders-.*", e);
        }
    }

    private static void validate(KafkaSourceProperties source, String p) {
        if (source.getBadRecordPolicy() == BadRecordPolicy.DEAD_LETTER
                && (source.getDeadLetterTopic() == null || source.getDeadLetterTopic().isBlank())) {
            throw new InvalidStreamSplitConfigurationException(p + "dead-letter-topic", null,
                    "bad-record-policy is 'dead-letter' but no dead-letter topic is set",
                    "Set " + p + "dead-letter-topic (e.g. orders.DLT), or use bad-record-policy 'skip' or 'fail'.");
        }
        if (source.getDeadLetterTopic() != null && source.getBadRecordPolicy() != BadRecordPolicy.DEAD_LETTER) {
            throw new InvalidStreamSplitConfigurationException(p + "dead-letter-topic", source.getDeadLetterTopic(),
                    "a dead-letter topic is set but bad-record-policy is '"
                            + source.getBadRecordPolicy().name().toLowerCase().replace('_', '-') + "', so it would never be used",
                    "Set " + p + "bad-record-policy to dead-letter, or remove the dead-letter topic.");
        }
        if (source.getStartingOffsets() == KafkaSourceProperties.StartingOffsetsMode.COMMITTED
                && source.getGroupId() == null) {
            throw new InvalidStreamSplitConfigurationException(p + "group-id", null,
                    "starting-offsets is 'committed', which reads the consumer group's commits, but no group id is set",
                    "Set " + p + "group-id.");
        }
        if (Boolean.TRUE.equals(source.getCommitOffsets()) && source.getGroupId() == null) {
            throw new InvalidStreamSplitConfigurationException(p + "group-id", null,
                    "commit-offsets is true but there is no consumer group to commit to",
                    "Set " + p + "group-id, or set commit-offsets to false.");
        }
        if (source.getStoppingOffsets() != KafkaSourceProperties.StoppingOffsetsMode.NONE
                && source.getDiscoveryInterval() != null) {
            throw new InvalidStreamSplitConfigurationException(p + "discovery-interval", source.getDiscoveryInterval(),
                    "a bounded source (stopping-offsets '" + source.getStoppingOffsets().name().toLowerCase()
                            + "') reads the partitions found at start; discovery does not apply",
                    "Remove " + p + "discovery-interval, or set stopping-offsets to none.");
        }
        if (source.getDeserializer() != null && source.getRecordEmitter() != null) {
            throw new InvalidStreamSplitConfigurationException(p + "record-emitter", source.getRecordEmitter(),
                    "both a deserializer ('" + source.getDeserializer() + "') and a record emitter are set",
                    "Keep one: a record emitter already turns records into elements.");
        }
    }

    private static StartingOffsets startingOffsets(KafkaSourceProperties source, String p) {
        return switch (source.getStartingOffsets()) {
            case EARLIEST -> StartingOffsets.earliest();
            case LATEST -> StartingOffsets.latest();
            case COMMITTED -> StartingOffsets.committed(source.getOffsetResetStrategy());
            case TIMESTAMP -> StartingOffsets.timestamp(required(p + "starting-timestamp",
                    source.getStartingTimestamp(), "starting-offsets is 'timestamp'").toEpochMilli());
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void deserializer(StreamSplitKafkaSourceBuilder builder, KafkaSourceProperties source, String p) {
        if (source.getRecordEmitter() != null) {
            UserBeans.Found found = beans.find(p + "record-emitter", source.getRecordEmitter(), "record emitter",
                    KafkaRecordEmitter.class);
            beans.requireShippable(p + "record-emitter", found);
            TypeInformation type = beans.elementType(p + "type", source.getType(), found, KafkaRecordEmitter.class);
            builder.setRecordEmitter((KafkaRecordEmitter) found.bean(), type);
            return;
        }
        UserBeans.Found found = beans.find(p + "deserializer", source.getDeserializer(), "deserializer",
                KafkaRecordDeserializer.class, DeserializationSchema.class, KafkaRecordEmitter.class);
        beans.requireShippable(p + "deserializer", found);
        if (found.bean() instanceof DeserializationSchema<?> schema) {
            builder.setValueOnlyDeserializer(schema);
        } else if (found.bean() instanceof KafkaRecordEmitter<?> emitter) {
            builder.setRecordEmitter(emitter, beans.elementType(p + "type", source.getType(), found, KafkaRecordEmitter.class));
        } else {
            TypeInformation type = beans.elementType(p + "type", source.getType(), found, KafkaRecordDeserializer.class);
            builder.setDeserializer((KafkaRecordDeserializer) found.bean(), type);
        }
    }

    private static void setProperty(StreamSplitKafkaSourceBuilder<?> builder, String property, String key, String value) {
        try {
            builder.setProperty(key, value);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(property, value, e.getMessage(),
                    "Remove " + property + ".", e);
        }
    }

    private static <V> V required(String property, V value, String because) {
        if (value == null) {
            throw new InvalidStreamSplitConfigurationException(property, null, because + " but " + property
                    + " is not set", "Set " + property + " to an ISO-8601 instant (2026-01-31T00:00:00Z) or epoch milliseconds.");
        }
        return value;
    }
}
