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
import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException;
import io.streamsplit.connector.kafka.source.KafkaSourceStream;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
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
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Builds the connector's {@link StreamSplitKafkaSource} from {@code streamsplit.kafka.sources.<name>}:
 * maps each property onto the builder, lets the {@link StreamSplitKafkaSourceCustomizer} beans
 * adjust it, and builds. The builder owns the source's rules; a rule it rejects comes back as an
 * {@link InvalidKafkaSourceException} naming the setting, which {@link SourcePropertyPaths} turns
 * into the YAML property. What is checked here belongs to YAML alone (a dead-letter topic, a
 * pattern string); where the source starts and stops is {@link SourceOffsets}, how it reads its
 * records {@link SourceDeserializers}. It also answers what the job, SQL and health ask of the YAML
 * sources ({@link KafkaSources}).
 */
public final class KafkaSourceFactory implements KafkaSources {

    /** The description of the bean definition of each YAML source, followed by its name. */
    public static final String BEAN_DESCRIPTION = "Kafka source streamsplit.kafka.sources.";

    private final StreamSplitKafkaProperties kafka;
    private final KafkaBootstrapServers bootstrapServers;
    private final SourceDeserializers deserializers;
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
        this.clientProperties = clientProperties;
        this.bootstrapServers = bootstrapServers;
        this.deserializers = new SourceDeserializers(beans, formats);
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
            OffsetResetStrategy springReset = SourceOffsets.springReset(spring);
            if (source.getGroupId() == null && groupId != null) {
                builder.setGroupId(groupId); // spring.kafka.consumer.group-id
            }
            builder.setOffsetResetStrategy(source.effectiveOnOffsetOutOfRange(springReset));
            if (source.getClientIdPrefix() == null && spring.consumerClientId() != null) {
                builder.setClientIdPrefix(spring.consumerClientId() + "-" + name);
            }
            builder.setStartingOffsets(SourceOffsets.starting(source, groupId, springReset, p));
            SourceOffsets.warnIfDeprecatedResetStrategy(source, p);
            StoppingOffsets stopping = SourceOffsets.stopping(source, p);
            if (stopping != null) {
                builder.setBounded(stopping);
            }
            if (kafka.getControlTopic() != null) {
                builder.setControlTopic(kafka.getControlTopic());
            }
            deserializers.apply(builder, source, p);
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
}
