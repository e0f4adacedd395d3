package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaAccessCheck;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.kafka.connection.SpringKafkaSettings;
import io.streamsplit.boot.autoconfigure.kafka.format.KafkaFormats;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.config.PropertyChecks;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.format.Keyed;
import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.KafkaSourceStream;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSourceBuilder;
import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Builds the connector's {@link StreamSplitKafkaSource} from {@code streamsplit.kafka.sources.<name>}:
 * maps each property onto the builder, lets the {@link StreamSplitKafkaSourceCustomizer} beans
 * adjust it, and builds. The builder owns the source's rules; a rule it rejects comes back as an
 * {@link InvalidKafkaSourceException} naming the setting, which {@link SourcePropertyPaths} turns
 * into the YAML property. What is checked here belongs to YAML alone (a dead-letter topic, a
 * pattern string, a timestamp that goes with a mode).
 */
public final class KafkaSourceFactory implements KafkaSources {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceFactory.class);

    /** The description of the bean definition of each YAML source, followed by its name. */
    public static final String BEAN_DESCRIPTION = "Kafka source streamsplit.kafka.sources.";

    private final StreamSplitKafkaProperties kafka;
    private final KafkaBootstrapServers bootstrapServers;
    private final UserBeans beans;
    private final KafkaFormats formats;
    private final KafkaClientProperties clientProperties;
    private final List<StreamSplitKafkaSourceCustomizer> customizers;
    private final Binder binder;

    /** @param binder binds the declared settings ({@link SourceOptions}) of each source by their keys */
    public KafkaSourceFactory(
            StreamSplitKafkaProperties kafka,
            KafkaClientProperties clientProperties,
            KafkaBootstrapServers bootstrapServers,
            UserBeans beans,
            KafkaFormats formats,
            List<StreamSplitKafkaSourceCustomizer> customizers,
            Binder binder) {
        this.binder = binder;
        this.kafka = kafka;
        this.formats = formats;
        this.clientProperties = clientProperties;
        this.bootstrapServers = bootstrapServers;
        this.beans = beans;
        this.customizers = List.copyOf(customizers);
    }

    /** The configuration of source {@code name}; a failure naming the configured ones when there is none. */
    public KafkaSourceProperties properties(String name) {
        KafkaSourceProperties source = kafka.getSources().get(name);
        if (source == null) {
            throw notConfigured(name);
        }
        return source;
    }

    @Override
    public InvalidStreamSplitConfigurationException notConfigured(String name) {
        return new InvalidStreamSplitConfigurationException(
                "streamsplit.kafka.sources",
                name,
                "no source named '" + name + "' is configured",
                "Use one of " + kafka.getSources().keySet() + ", or add streamsplit.kafka.sources." + name
                        + ".topics.");
    }

    @Override
    public boolean hasEventTime(String name) {
        return isConfigured(name) && properties(name).getWatermarks().getStrategy() != SourceWatermarks.Strategy.NONE;
    }

    @Override
    public Set<String> names() {
        return Collections.unmodifiableSet(kafka.getSources().keySet());
    }

    @Override
    public Reading reading(String name) {
        KafkaSourceProperties source = properties(name);
        String property = KafkaSources.prefix(name) + "bootstrap-servers";
        return new Reading(
                bootstrapServers.resolve(property, source.getBootstrapServers()),
                bootstrapServers.origin(property, source.getBootstrapServers()),
                source.getTopics(),
                source.getPattern(),
                source.getDeadLetterTopic());
    }

    @Override
    public String sharedBootstrapServers() {
        return bootstrapServers.resolve("streamsplit.kafka.bootstrap-servers", List.of());
    }

    @Override
    public boolean sharedIsDevBroker() {
        return bootstrapServers.sharedIsDevBroker();
    }

    @Override
    public Map<String, String> columns(String name) {
        return isConfigured(name) ? properties(name).getColumns() : Map.of();
    }

    /**
     * The operator uid of source {@code name}: {@code uid} as configured, else the connector's default;
     * a blank uid or one another source has too fails, naming the property.
     */
    @Override
    public String uid(String name) {
        KafkaSourceProperties source = kafka.getSources().get(name);
        String uid = source == null || source.getUid() == null ? KafkaSourceStream.defaultUid(name) : source.getUid();
        if (uid.isBlank()) {
            throw new InvalidStreamSplitConfigurationException(
                    KafkaSources.prefix(name) + "uid",
                    uid,
                    "the uid is blank",
                    "Remove it (the source's uid is then '" + KafkaSourceStream.defaultUid(name)
                            + "'), or set the uid its offsets are kept under in the savepoint to restore.");
        }
        for (String other : kafka.getSources().keySet()) {
            if (!other.equals(name) && uid.equals(uidOf(other))) {
                throw new InvalidStreamSplitConfigurationException(
                        KafkaSources.prefix(name) + "uid",
                        uid,
                        "source '" + other + "' has the same uid, and a job's operators need uids of their own",
                        "Give one of them another uid (" + KafkaSources.prefix(other) + "uid).");
            }
        }
        return uid;
    }

    private String uidOf(String name) {
        String uid = Objects.requireNonNull(kafka.getSources().get(name), name).getUid();
        return uid == null ? KafkaSourceStream.defaultUid(name) : uid;
    }

    /** Sets {@code option} on {@code builder} when the source sets it in YAML ({@code <prefix><key>}). */
    private <V> void bind(StreamSplitKafkaSourceBuilder<?> builder, String prefix, SourceOption<V> option) {
        binder.bind(prefix + option.key(), Bindable.of(option.type())).ifBound(value -> builder.set(option, value));
    }

    /** Whether source {@code name} is configured in YAML. */
    @Override
    public boolean isConfigured(String name) {
        return kafka.getSources().containsKey(name);
    }

    /** {@code spring.kafka.consumer.auto-offset-reset} as a reset strategy ({@code none}: fail), or {@code null}. */
    private static @Nullable OffsetResetStrategy springReset(SpringKafkaSettings spring) {
        String reset = spring.autoOffsetReset();
        if (reset == null) {
            return null;
        }
        try {
            return OffsetResetStrategy.parse(reset);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(
                    "spring.kafka.consumer.auto-offset-reset",
                    reset,
                    "not a reset strategy: " + e.getMessage(),
                    "Use earliest, latest or none.");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public StreamSplitKafkaSource<?> create(String name) {
        KafkaSourceProperties source = properties(name);
        String p = KafkaSources.prefix(name);
        checkDeadLetterTopic(source, p);
        String servers = bootstrapServers.resolve(p + "bootstrap-servers", source.getBootstrapServers());
        StreamSplitKafkaSourceBuilder builder = StreamSplitKafkaSource.builder();
        SourcePropertyPaths paths = new SourcePropertyPaths(p, source.getProperties(), clientProperties);
        try {
            builder.setName(name);
            subscribe(builder, source, p);
            builder.setBootstrapServers(servers);
            builder.setProperties(clientProperties.common(KafkaClients.Kind.CONSUMER));
            builder.setProperties(source.getProperties());
            source.applyTo(builder);
            for (SourceOption<?> option : SourceOptions.all()) {
                bind(builder, p, option);
            }
            SpringKafkaSettings spring = clientProperties.spring();
            String groupId = source.getGroupId() != null ? source.getGroupId() : spring.groupId();
            OffsetResetStrategy springReset = springReset(spring);
            if (source.getGroupId() == null && groupId != null) {
                builder.setGroupId(groupId); // spring.kafka.consumer.group-id
            }
            builder.setOffsetResetStrategy(source.effectiveOnOffsetOutOfRange(springReset));
            if (source.getClientIdPrefix() == null && spring.consumerClientId() != null) {
                builder.setClientIdPrefix(spring.consumerClientId() + "-" + name);
            }
            builder.setStartingOffsets(startingOffsets(source, groupId, springReset, p));
            warnIfDeprecatedResetStrategy(source, p);
            StoppingOffsets.Kind stopping = source.getStoppingOffsets();
            if (stopping != null) {
                builder.setBounded(
                        switch (stopping) {
                            case LATEST -> StoppingOffsets.latest();
                            case TIMESTAMP ->
                                StoppingOffsets.timestamp(required(
                                                p + "stopping-timestamp",
                                                source.getStoppingTimestamp(),
                                                "stopping-offsets is 'timestamp'")
                                        .toEpochMilli());
                            case SPECIFIC ->
                                StoppingOffsets.specific(SpecificOffsets.parse(
                                        p + "stopping-specific-offsets",
                                        source.getStoppingSpecificOffsets(),
                                        "stopping-offsets is 'specific'"));
                        });
            }
            if (kafka.getControlTopic() != null) {
                builder.setControlTopic(kafka.getControlTopic());
            }
            deserializer(builder, source, p);
            customizers.forEach(customizer -> customizer.customize(name, builder));
            StreamSplitKafkaSource<?> built = builder.build();
            verifyAccess(name, p, servers, source);
            return built;
        } catch (InvalidKafkaSourceException e) {
            throw paths.report(e);
        }
    }

    /** The watermark strategy of source {@code name}, from {@code watermarks.*}; none for a source not in YAML. */
    @Override
    public <T> WatermarkStrategy<T> watermarks(String name) {
        if (!isConfigured(name)) {
            return WatermarkStrategy.noWatermarks();
        }
        SourceWatermarks watermarks = properties(name).getWatermarks();
        String p = KafkaSources.prefix(name) + "watermarks.";
        WatermarkStrategy<T> strategy = switch (watermarks.getStrategy()) {
            case NONE -> WatermarkStrategy.noWatermarks();
            case MONOTONOUS -> WatermarkStrategy.forMonotonousTimestamps();
            case BOUNDED_OUT_OF_ORDERNESS ->
                WatermarkStrategy.forBoundedOutOfOrderness(
                        PropertyChecks.positive(p + "max-out-of-orderness", watermarks.getMaxOutOfOrderness()));
        };
        if (watermarks.getIdleTimeout() != null) {
            Duration idle = PropertyChecks.positive(p + "idle-timeout", watermarks.getIdleTimeout());
            strategy = strategy.withIdleness(idle);
        }
        return strategy;
    }

    private static void subscribe(StreamSplitKafkaSourceBuilder<?> builder, KafkaSourceProperties source, String p) {
        if (!source.getTopics().isEmpty()) {
            builder.setTopics(source.getTopics());
        }
        if (source.getPattern() != null && !source.getPattern().isBlank()) {
            try {
                builder.setTopicPattern(Pattern.compile(source.getPattern()));
            } catch (PatternSyntaxException e) {
                throw new InvalidStreamSplitConfigurationException(
                        p + "pattern",
                        source.getPattern(),
                        "not a valid regular expression: " + e.getDescription(),
                        "Fix the expression, e.g. orders-.*",
                        e);
            }
        }
    }

    /** The dead-letter topic is the starter's: the connector hands dead letters to a stream, YAML names their topic. */
    private static void checkDeadLetterTopic(KafkaSourceProperties source, String p) {
        boolean hasTopic = source.getDeadLetterTopic() != null
                && !source.getDeadLetterTopic().isBlank();
        if (source.getBadRecordPolicy() == BadRecordPolicy.DEAD_LETTER && !hasTopic) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "dead-letter-topic",
                    null,
                    "bad-record-policy is 'dead-letter' but no dead-letter topic is set",
                    "Set " + p + "dead-letter-topic (e.g. orders.DLT), or use bad-record-policy 'skip' or 'fail'.");
        }
        if (source.getDeadLetterTopic() != null && source.getBadRecordPolicy() != BadRecordPolicy.DEAD_LETTER) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "dead-letter-topic",
                    source.getDeadLetterTopic(),
                    "a dead-letter topic is set but bad-record-policy is '"
                            + source.getBadRecordPolicy()
                                    .name()
                                    .toLowerCase(Locale.ROOT)
                                    .replace('_', '-')
                            + "', so it would never be used",
                    "Set " + p + "bad-record-policy to dead-letter, or remove the dead-letter topic.");
        }
    }

    @SuppressWarnings("deprecation")
    private static void warnIfDeprecatedResetStrategy(KafkaSourceProperties source, String p) {
        if (source.getOffsetResetStrategy() != null) {
            LOG.warn(
                    "{}offset-reset-strategy is deprecated: it set two things at once. Set {}on-offset-out-of-range"
                            + " (an offset gone from the log) and, with starting-offsets 'committed', {}on-missing-commit"
                            + " (a partition without a commit) instead; until then it stands for both.",
                    p,
                    p,
                    p);
        }
    }

    private static StartingOffsets startingOffsets(
            KafkaSourceProperties source,
            @Nullable String groupId,
            @Nullable OffsetResetStrategy springReset,
            String p) {
        if (source.getStartingOffsets() == null) {
            return StartingOffsets.defaultFor(groupId, source.effectiveOnMissingCommit(springReset));
        }
        return switch (source.getStartingOffsets()) {
            case EARLIEST -> StartingOffsets.earliest();
            case LATEST -> StartingOffsets.latest();
            case COMMITTED -> StartingOffsets.committed(source.effectiveOnMissingCommit(springReset));
            case TIMESTAMP ->
                StartingOffsets.timestamp(required(
                                p + "starting-timestamp",
                                source.getStartingTimestamp(),
                                "starting-offsets is 'timestamp'")
                        .toEpochMilli());
            case SPECIFIC ->
                StartingOffsets.specific(
                        SpecificOffsets.parse(
                                p + "starting-specific-offsets",
                                source.getStartingSpecificOffsets(),
                                "starting-offsets is 'specific'"),
                        StartingOffsets.earliest());
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void deserializer(StreamSplitKafkaSourceBuilder builder, KafkaSourceProperties source, String p) {
        KafkaFormats.checkColumns(p, source.getFormat(), source.getType(), source.getColumns());
        if (source.getFormat() != null) {
            format(builder, source, p);
            return;
        }
        if (source.getKeyFormat() != null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "key-format",
                    source.getKeyFormat().yaml(),
                    "key-format is set but format is not; keys are read together with a built-in value format",
                    "Set " + p
                            + "format too (json, avro, avro-confluent, json-schema-confluent, protobuf, string or bytes), or read keys in a KafkaRecordDeserializer"
                            + " bean.");
        }
        if (source.getRecordEmitter() != null) {
            UserBeans.Found found = beans.find(
                    p + "record-emitter", source.getRecordEmitter(), "record emitter", KafkaRecordEmitter.class);
            beans.requireShippable(p + "record-emitter", found);
            TypeInformation type = beans.elementType(p + "type", source.getType(), found, KafkaRecordEmitter.class);
            builder.setRecordEmitter((KafkaRecordEmitter) found.bean(), type);
            if (source.getDeserializer() == null) {
                return;
            }
        }
        UserBeans.Found found = beans.find(
                p + "deserializer",
                source.getDeserializer(),
                "deserializer",
                KafkaRecordDeserializer.class,
                DeserializationSchema.class,
                KafkaRecordEmitter.class);
        beans.requireShippable(p + "deserializer", found);
        if (found.bean() instanceof DeserializationSchema<?> schema) {
            builder.setValueOnlyDeserializer(schema);
        } else if (found.bean() instanceof KafkaRecordEmitter<?> emitter) {
            builder.setRecordEmitter(
                    emitter, beans.elementType(p + "type", source.getType(), found, KafkaRecordEmitter.class));
        } else {
            TypeInformation type =
                    beans.elementType(p + "type", source.getType(), found, KafkaRecordDeserializer.class);
            builder.setDeserializer((KafkaRecordDeserializer) found.bean(), type);
        }
    }

    /** {@code format:} (and {@code key-format:}) instead of a deserializer or record-emitter bean. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void format(StreamSplitKafkaSourceBuilder builder, KafkaSourceProperties source, String p) {
        String format = Objects.requireNonNull(source.getFormat(), "format() is for a source with a format")
                .yaml();
        for (String bean : new String[] {"deserializer", "record-emitter"}) {
            Object named = bean.equals("deserializer") ? source.getDeserializer() : source.getRecordEmitter();
            if (named != null) {
                throw new InvalidStreamSplitConfigurationException(
                        p + "format",
                        format,
                        "both format '" + format + "' and " + bean + " '" + named + "' are set; a source reads with"
                                + " one of them",
                        "Remove " + p + bean + " to read with format " + format + ", or remove " + p + "format to"
                                + " read with the bean.");
            }
        }
        DeserializationSchema value = formats.reader(
                p, source.getFormat(), source.getType(), source.getColumns(), source.getSchema(), source.getCharset());
        if (source.getKeyFormat() == null) {
            builder.setValueOnlyDeserializer(value);
            return;
        }
        DeserializationSchema key = formats.keyReader(p, source.getKeyFormat(), source.getCharset());
        builder.setDeserializer(Keyed.deserializer(key, value), Keyed.typeInfo(key, value));
    }

    /** With SASL/TLS, the source's credentials and rights, checked at startup (see {@link KafkaAccessCheck}). */
    private void verifyAccess(String name, String p, String servers, KafkaSourceProperties source) {
        Properties client = clientProperties.forClient(KafkaClients.Kind.CONSUMER, servers, source.getProperties());
        if (kafka.isVerifyAccess() && KafkaAccessCheck.secured(client)) {
            KafkaAccessCheck.checkSource(
                    name,
                    p,
                    client,
                    source.getTopics().isEmpty() ? null : source.getTopics(),
                    source.getGroupId(),
                    source.getProperties().containsKey("sasl.jaas.config")
                            ? p + "properties.sasl.jaas.config"
                            : clientProperties.origin("sasl.jaas.config"));
        }
    }

    private static <V> V required(String property, @Nullable V value, String because) {
        if (value == null) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    null,
                    because + " but " + property + " is not set",
                    "Set " + property + " to an ISO-8601 instant (2026-01-31T00:00:00Z) or epoch milliseconds.");
        }
        return value;
    }
}
