package io.streamsplit.connector.kafka.source;

import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException.Setting;
import io.streamsplit.connector.kafka.source.enumerator.KafkaMetadata;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSubscription;
import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import io.streamsplit.connector.kafka.source.reader.ElementMapping;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.function.SerializableSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link StreamSplitKafkaSource}. Conflicting settings fail at the setter that
 * conflicts; missing ones fail in {@link #build()}, each with a message that says what to do.
 *
 * <pre>{@code
 * StreamSplitKafkaSource.<Order>builder()
 *         .setName("orders")
 *         .setBootstrapServers("localhost:9092")
 *         .setTopicPattern(Pattern.compile("orders-.*"))
 *         .setPartitionDiscoveryInterval(Duration.ofSeconds(30))
 *         .setGroupId("order-totals")
 *         .setDeserializer(record -> Order.parse(record.value()), Order.class)
 *         .setBadRecordPolicy(BadRecordPolicy.SKIP)
 *         .build();
 * }</pre>
 *
 * <p>Defaults: earliest offset, unbounded, no rate limit, partitions discovered once at start, offsets committed
 * on checkpoint when a group id is set, {@code isolation.level=read_committed}, no topic auto-creation, {@code
 * max.poll.records=2000} ({@link SourceOptions#MAX_POLL_RECORDS}), {@code max.partition.fetch.bytes} 8 MB per reader shared among its partitions (1–8 MB
 * each), reset to earliest when out of range, bad records fail.
 *
 * @param <T> the element type
 */
@PublicEvolving
public final class StreamSplitKafkaSourceBuilder<T> {

    private @Nullable String name;
    private @Nullable Subscription subscription;
    private @Nullable StartingOffsets startingOffsets;
    private @Nullable StoppingOffsets stoppingOffsets;
    private @Nullable OffsetResetStrategy offsetResetStrategy;
    private @Nullable String controlTopic;
    private @Nullable Boolean commitOffsets;
    private BadRecordPolicy badRecordPolicy = BadRecordPolicy.FAIL;
    private @Nullable KafkaRecordEmitter<T> emitter;
    private @Nullable TypeInformation<T> elementType;
    private @Nullable String clientIdPrefix;
    private @Nullable SerializableSupplier<String> rackId;
    private Duration metadataTimeout = Duration.ofSeconds(30);
    private @Nullable SerializableSupplier<KafkaMetadata> metadataFactory;
    private final Properties properties = new Properties();
    private final Map<SourceOption<?>, Object> options = new LinkedHashMap<>();

    StreamSplitKafkaSourceBuilder() {}

    /** A name for logs, metrics and client ids (e.g. the YAML source name); defaults to the subscription. */
    public StreamSplitKafkaSourceBuilder<T> setName(String name) {
        this.name = InvalidKafkaSourceException.requireText(name, Setting.NAME, "source name");
        return this;
    }

    /** The Kafka cluster, as {@code host:port[,host:port]}. */
    public StreamSplitKafkaSourceBuilder<T> setBootstrapServers(String bootstrapServers) {
        return setProperty(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                InvalidKafkaSourceException.requireText(
                        bootstrapServers, Setting.BOOTSTRAP_SERVERS, "bootstrap servers"));
    }

    /** Reads all partitions of these topics. */
    public StreamSplitKafkaSourceBuilder<T> setTopics(String... topics) {
        return setTopics(Arrays.asList(topics));
    }

    /** Reads all partitions of these topics. */
    public StreamSplitKafkaSourceBuilder<T> setTopics(List<String> topics) {
        InvalidKafkaSourceException.require(
                topics != null && !topics.isEmpty() && topics.stream().noneMatch(t -> t == null || t.isBlank()),
                Setting.TOPICS,
                topics,
                "Topic names must not be blank, got " + topics,
                "a topic name is blank",
                "Remove the blank entry from {TOPICS}.");
        return subscribe(
                KafkaSubscription.topics(topics),
                Setting.TOPICS,
                topics,
                "setTopics(" + topics + ")",
                "topics " + topics);
    }

    /** Reads all partitions of every topic whose whole name matches; new matching topics are found by discovery. */
    public StreamSplitKafkaSourceBuilder<T> setTopicPattern(Pattern pattern) {
        Objects.requireNonNull(pattern, "pattern");
        return subscribe(
                KafkaSubscription.pattern(pattern),
                Setting.TOPIC_PATTERN,
                pattern,
                "setTopicPattern(" + pattern + ")",
                "a pattern");
    }

    /** Reads exactly these partitions. */
    public StreamSplitKafkaSourceBuilder<T> setPartitions(Set<TopicPartition> partitions) {
        InvalidKafkaSourceException.require(
                partitions != null && !partitions.isEmpty(),
                Setting.PARTITIONS,
                partitions,
                "A partition subscription needs at least one partition",
                "no partition is given",
                "Name at least one partition in {PARTITIONS}.");
        return subscribe(
                KafkaSubscription.partitions(partitions),
                Setting.PARTITIONS,
                partitions,
                "setPartitions(" + partitions + ")",
                "partitions " + partitions);
    }

    /** Takes the one subscription; a second one fails naming both: a source reads exactly one. */
    private StreamSplitKafkaSourceBuilder<T> subscribe(
            KafkaSubscription next, Setting setting, Object value, String call, String description) {
        if (subscription != null) {
            throw new InvalidKafkaSourceException(
                    setting,
                    value,
                    "A source subscribes by exactly one of topics, topic pattern or partitions; " + subscription.call
                            + " was already called, so " + call + " conflicts. Keep one of them.",
                    "both " + subscription.description + " and " + description
                            + " are set; a source reads exactly one of topics, topic pattern or partitions",
                    "Keep one: remove {" + subscription.setting + "} or {" + setting + "}.");
        }
        subscription = new Subscription(next, setting, call, description);
        return this;
    }

    /** The subscription, with how it was given (for the failure of a second one). */
    private record Subscription(KafkaSubscription subscription, Setting setting, String call, String description) {}

    /** The consumer group: where offsets are committed on checkpoint and read by {@link StartingOffsets#committed}. */
    public StreamSplitKafkaSourceBuilder<T> setGroupId(String groupId) {
        return setProperty(
                ConsumerConfig.GROUP_ID_CONFIG,
                InvalidKafkaSourceException.requireText(groupId, Setting.GROUP_ID, "group id"));
    }

    /**
     * Where a new job starts (a job restored from a checkpoint continues from its offsets). Default
     * {@link StartingOffsets#defaultFor}: with a group id, the group's committed offsets (partitions without a
     * commit from the offset reset strategy), so that a job started again without its state continues where
     * its group stopped, as a Kafka consumer does; without one, {@link StartingOffsets#earliest()}.
     */
    public StreamSplitKafkaSourceBuilder<T> setStartingOffsets(StartingOffsets startingOffsets) {
        this.startingOffsets = Objects.requireNonNull(startingOffsets, "startingOffsets");
        return this;
    }

    /** What to do when an offset is no longer in the log (retention); default {@link OffsetResetStrategy#EARLIEST}. */
    public StreamSplitKafkaSourceBuilder<T> setOffsetResetStrategy(OffsetResetStrategy strategy) {
        this.offsetResetStrategy = Objects.requireNonNull(strategy, "strategy");
        return this;
    }

    /** Makes the source bounded: it stops at these offsets and the job can finish. */
    public StreamSplitKafkaSourceBuilder<T> setBounded(StoppingOffsets stoppingOffsets) {
        this.stoppingOffsets = Objects.requireNonNull(stoppingOffsets, "stoppingOffsets");
        return this;
    }

    /**
     * How often to look for new and deleted partitions and topics; {@code Duration.ZERO} (default): once at start.
     * The same as {@code set(SourceOptions.DISCOVERY_INTERVAL, interval)}.
     */
    public StreamSplitKafkaSourceBuilder<T> setPartitionDiscoveryInterval(Duration interval) {
        return set(SourceOptions.DISCOVERY_INTERVAL, Objects.requireNonNull(interval, "interval"));
    }

    /**
     * At most this many records per second for the whole source, split evenly over its readers
     * (Flink's {@code RateLimiterStrategy} on {@code SourceReaderBase}); default: unlimited.
     */
    public StreamSplitKafkaSourceBuilder<T> setMaxRecordsPerSecond(double recordsPerSecond) {
        return set(SourceOptions.MAX_RECORDS_PER_SECOND, recordsPerSecond);
    }

    /** A compacted topic the running source takes pause, resume and rate commands from; default none. */
    public StreamSplitKafkaSourceBuilder<T> setControlTopic(String topic) {
        this.controlTopic = InvalidKafkaSourceException.requireText(topic, Setting.CONTROL_TOPIC, "control topic");
        return this;
    }

    /** Whether to commit offsets to the consumer group on checkpoint; default: yes when a group id is set. */
    public StreamSplitKafkaSourceBuilder<T> setCommitOffsetsOnCheckpoint(boolean commit) {
        this.commitOffsets = commit;
        return this;
    }

    /** What to do with records the deserializer or emitter cannot handle; default {@link BadRecordPolicy#FAIL}. */
    public StreamSplitKafkaSourceBuilder<T> setBadRecordPolicy(BadRecordPolicy policy) {
        this.badRecordPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** Deserializes the record value with a Flink {@link DeserializationSchema}. */
    public StreamSplitKafkaSourceBuilder<T> setValueOnlyDeserializer(DeserializationSchema<T> schema) {
        return setRecordEmitter(KafkaRecordEmitter.valueOnly(schema), schema.getProducedType());
    }

    /** Deserializes whole records (key, value, headers) with one element per record. */
    public StreamSplitKafkaSourceBuilder<T> setDeserializer(KafkaRecordDeserializer<T> deserializer, Class<T> type) {
        return setDeserializer(deserializer, TypeInformation.of(type));
    }

    /** Deserializes whole records (key, value, headers) with one element per record. */
    public StreamSplitKafkaSourceBuilder<T> setDeserializer(
            KafkaRecordDeserializer<T> deserializer, TypeInformation<T> type) {
        return setRecordEmitter(KafkaRecordEmitter.of(deserializer), type);
    }

    /** Turns each record into 0..n elements with timestamps of the emitter's choosing. */
    public StreamSplitKafkaSourceBuilder<T> setRecordEmitter(KafkaRecordEmitter<T> emitter, Class<T> type) {
        return setRecordEmitter(emitter, TypeInformation.of(type));
    }

    /** Turns each record into 0..n elements with timestamps of the emitter's choosing. */
    public StreamSplitKafkaSourceBuilder<T> setRecordEmitter(KafkaRecordEmitter<T> emitter, TypeInformation<T> type) {
        InvalidKafkaSourceException.require(
                this.emitter == null,
                Setting.DESERIALIZER,
                emitter,
                "A deserializer or record emitter is" + " already set for this source; set exactly one",
                "a deserializer or record emitter (" + this.emitter + ") is already set, and a second one (" + emitter
                        + ") is given",
                "Keep one: a record emitter already turns records into elements.");
        this.emitter = Objects.requireNonNull(emitter, "emitter");
        this.elementType = Objects.requireNonNull(type, "type");
        return this;
    }

    /** Prefix of the Kafka client ids ({@code <prefix>-<subtask>}, {@code <prefix>-enumerator}); default the name. */
    public StreamSplitKafkaSourceBuilder<T> setClientIdPrefix(String prefix) {
        this.clientIdPrefix =
                InvalidKafkaSourceException.requireText(prefix, Setting.CLIENT_ID_PREFIX, "client id prefix");
        return this;
    }

    /**
     * The rack readers fetch from ({@code client.rack}, rack-aware fetching): a rack id, or {@code env:NAME}
     * to read environment variable {@code NAME} on each TaskManager as its reader starts. Default: none.
     */
    public StreamSplitKafkaSourceBuilder<T> setClientRack(String rack) {
        return setRackIdSupplier(ClientRack.parse(rack));
    }

    /** The rack readers fetch from, as the official {@code KafkaSourceBuilder} takes it: run on each TaskManager. */
    public StreamSplitKafkaSourceBuilder<T> setRackIdSupplier(SerializableSupplier<String> rackIdSupplier) {
        this.rackId = Objects.requireNonNull(rackIdSupplier, "rackIdSupplier");
        return this;
    }

    /** How long the enumerator waits for metadata requests (default 30 s). */
    public StreamSplitKafkaSourceBuilder<T> setMetadataTimeout(Duration timeout) {
        InvalidKafkaSourceException.requirePositive(
                timeout != null && !timeout.isZero() && !timeout.isNegative(),
                timeout,
                Setting.METADATA_TIMEOUT,
                "Metadata timeout",
                "Set a positive duration such as 30s.");
        this.metadataTimeout = timeout;
        return this;
    }

    /**
     * Sets a declared setting ({@link SourceOptions}) to {@code value}, checked against its rule; it wins over the
     * same setting given as a Kafka property.
     */
    public <V> StreamSplitKafkaSourceBuilder<T> set(SourceOption<V> option, V value) {
        Objects.requireNonNull(option, "option");
        if (!option.allows(value)) {
            throw InvalidKafkaSourceException.ofOption(option, value);
        }
        options.put(option, value);
        return this;
    }

    /** Any Kafka consumer setting (security, fetch sizes, …); passed to readers and the enumerator's admin client. */
    public StreamSplitKafkaSourceBuilder<T> setProperty(String key, String value) {
        KafkaClientConfigs.check(key, value);
        properties.setProperty(key, value);
        return this;
    }

    /** Several Kafka consumer settings at once; see {@link #setProperty(String, String)}. */
    public StreamSplitKafkaSourceBuilder<T> setProperties(Map<?, ?> settings) {
        settings.forEach((k, v) -> setProperty(String.valueOf(k), String.valueOf(v)));
        return this;
    }

    /** How the enumerator reads cluster metadata, for tests without a broker; default Kafka's Admin client. */
    @Internal
    public StreamSplitKafkaSourceBuilder<T> setMetadataFactory(SerializableSupplier<KafkaMetadata> factory) {
        this.metadataFactory = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /** The value of a declared setting: as set, else its default. */
    @SuppressWarnings("unchecked")
    private <V> V option(SourceOption<V> option) {
        return (V) options.getOrDefault(option, option.defaultValue());
    }

    /** Checks the settings and builds the source. */
    public StreamSplitKafkaSource<T> build() {
        StartingOffsets startingOffsets = startingOffsets();
        sanityCheck(startingOffsets);
        String groupId = properties.getProperty(ConsumerConfig.GROUP_ID_CONFIG);
        OffsetResetStrategy reset = KafkaClientConfigs.resetStrategy(properties, offsetResetStrategy);
        KafkaSubscription chosen = Objects.requireNonNull(subscription).subscription(); // sanityCheck: one is set
        String sourceName = name != null ? name : chosen.toString();
        String clientId = KafkaClientConfigs.clientId(clientIdPrefix, sourceName);
        Properties consumer = KafkaClientConfigs.consumer(properties, clientId, reset);
        for (SourceOption<?> option : SourceOptions.all()) {
            String property = option.consumerProperty();
            if (property != null && (options.containsKey(option) || !consumer.containsKey(property))) {
                consumer.setProperty(property, String.valueOf(option(option)));
            }
        }
        SerializableSupplier<KafkaMetadata> metadata = metadataFactory != null
                ? metadataFactory
                : StreamSplitKafkaSource.adminMetadata(
                        KafkaClientConfigs.admin(properties, clientId),
                        KafkaClientConfigs.isolation(consumer),
                        metadataTimeout.toMillis());
        StreamSplitKafkaSource.Config<T> config = new StreamSplitKafkaSource.Config<>(
                sourceName,
                chosen,
                startingOffsets,
                stoppingOffsets,
                option(SourceOptions.DISCOVERY_INTERVAL).toMillis(),
                groupId,
                commitOffsets != null ? commitOffsets : groupId != null,
                badRecordPolicy,
                option(SourceOptions.MAX_RECORDS_PER_SECOND),
                controlTopic,
                Objects.requireNonNull(emitter),
                consumer,
                rackId,
                metadata);
        return new StreamSplitKafkaSource<>(config, ElementMapping.elementsOnly(), Objects.requireNonNull(elementType));
    }

    /** The starting offsets as set, else the default: committed with a group id, earliest without. */
    private StartingOffsets startingOffsets() {
        return startingOffsets != null
                ? startingOffsets
                : StartingOffsets.defaultFor(
                        properties.getProperty(ConsumerConfig.GROUP_ID_CONFIG),
                        KafkaClientConfigs.resetStrategy(properties, offsetResetStrategy));
    }

    /** Every rule the settings must satisfy together, each failing with the setting it is about. */
    private void sanityCheck(StartingOffsets startingOffsets) {
        InvalidKafkaSourceException.requireSet(
                subscription != null,
                Setting.TOPICS,
                "No topics to read: call setTopics, setTopicPattern or setPartitions",
                "the source reads no topic",
                "Set {TOPICS} (e.g. orders) or {TOPIC_PATTERN} (e.g. orders-.*).");
        InvalidKafkaSourceException.requireSet(
                emitter != null,
                Setting.DESERIALIZER,
                "No deserializer: call setValueOnlyDeserializer, setDeserializer or setRecordEmitter",
                "the source has no deserializer or record emitter",
                "Set {DESERIALIZER}.");
        String bootstrap = properties.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        InvalidKafkaSourceException.requireSet(
                bootstrap != null && !bootstrap.isBlank(),
                Setting.BOOTSTRAP_SERVERS,
                "No Kafka cluster: call setBootstrapServers(\"host:port\")",
                "no Kafka cluster is set",
                "Set {BOOTSTRAP_SERVERS} (host:port[,host:port]).");
        String groupId = properties.getProperty(ConsumerConfig.GROUP_ID_CONFIG);
        InvalidKafkaSourceException.requireSet(
                groupId != null || !startingOffsets.needsGroupId(),
                Setting.GROUP_ID,
                "Starting offsets '" + startingOffsets
                        + "' read the consumer group's commits, but no group id is set: call setGroupId(...)",
                "{STARTING_OFFSETS} is '" + startingOffsets.kind().name().toLowerCase(Locale.ROOT) + "', which"
                        + " reads the consumer group's commits, but no group id is set",
                "Set {GROUP_ID}.");
        InvalidKafkaSourceException.requireSet(
                groupId != null || !Boolean.TRUE.equals(commitOffsets),
                Setting.GROUP_ID,
                "Committing offsets on checkpoint needs a"
                        + " consumer group: call setGroupId(...) or setCommitOffsetsOnCheckpoint(false)",
                "{COMMIT_OFFSETS} is true but there is no consumer group to commit to",
                "Set {GROUP_ID}, or set {COMMIT_OFFSETS} to false.");
        Duration discoveryInterval = option(SourceOptions.DISCOVERY_INTERVAL);
        InvalidKafkaSourceException.requireOption(
                stoppingOffsets == null || discoveryInterval.isZero(),
                SourceOptions.DISCOVERY_INTERVAL,
                discoveryInterval,
                "A bounded source reads the partitions found at start and stops; partition discovery every "
                        + discoveryInterval
                        + " does not apply. Remove the discovery interval or the stopping offsets.",
                "a bounded source (stopping offsets " + stoppingOffsets
                        + ") reads the partitions found at start; discovery does not apply",
                "Remove it, or make the source unbounded ({STOPPING_OFFSETS}).");
    }
}
