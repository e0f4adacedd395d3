package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.kafka.ValueFormat;
import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSourceBuilder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.core.io.Resource;

/**
 * One named Kafka source, {@code streamsplit.kafka.sources.<name>.*}. Unset values mean "use the
 * default"; every default is listed in the configuration metadata.
 */
public class KafkaSourceProperties {

    /** Topics to read. Set either this or {@code pattern}. */
    private List<String> topics = new ArrayList<>();

    /** Regular expression of topics to read, matched on every partition discovery. Set either this or {@code topics}. */
    private @Nullable String pattern;

    /** Kafka bootstrap servers for this source; defaults to streamsplit.kafka.bootstrap-servers, then Spring Boot's Kafka settings. */
    private List<String> bootstrapServers = new ArrayList<>();

    /** Consumer group id; offsets are committed to it on every completed checkpoint (for monitoring). */
    private @Nullable String groupId;

    /**
     * Where a new job starts reading (a job resumed from its state continues from its offsets). Unset: with a
     * group-id, the group's committed offsets (partitions without a commit per on-missing-commit), as a Kafka
     * consumer continues where its group stopped; without one, earliest.
     */
    private StartingOffsets.@Nullable Kind startingOffsets;

    /** Record time to start from when starting-offsets is 'timestamp' (ISO-8601 instant or epoch milliseconds). */
    private @Nullable Instant startingTimestamp;

    /**
     * Offset to start each partition from when starting-offsets is 'specific', as topic-partition: offset (e.g.
     * orders-0: 42); partitions not listed start from the earliest offset.
     */
    private Map<String, Long> startingSpecificOffsets = new LinkedHashMap<>();

    /**
     * What to do when an offset to read from is no longer in the log (deleted by retention): earliest, latest
     * or fail. Unset: earliest.
     */
    private @Nullable OffsetResetStrategy onOffsetOutOfRange;

    /**
     * Where starting-offsets 'committed' (the default with a group-id) starts a partition the consumer group has
     * no commit for: earliest, latest or fail. Unset: earliest.
     */
    private @Nullable OffsetResetStrategy onMissingCommit;

    /** Both on-offset-out-of-range and on-missing-commit at once; those two win when set. */
    private @Nullable OffsetResetStrategy offsetResetStrategy;

    /** Where the source stops, making it bounded: latest, timestamp or specific. Unset: unbounded. */
    private StoppingOffsets.@Nullable Kind stoppingOffsets;

    /** Record time to stop at when stopping-offsets is 'timestamp' (ISO-8601 instant or epoch milliseconds). */
    private @Nullable Instant stoppingTimestamp;

    /**
     * Offset to stop each partition before when stopping-offsets is 'specific', as topic-partition: offset (e.g.
     * orders-0: 1000); partitions not listed stop at the end offset found at start.
     */
    private Map<String, Long> stoppingSpecificOffsets = new LinkedHashMap<>();

    /** Built-in value format: json, avro, avro-confluent, json-schema-confluent, protobuf, string or bytes. Unset: a deserializer or record-emitter bean. */
    private @Nullable ValueFormat format;

    /** Built-in key format, string or bytes: elements become Keyed(key, value). Unset: keys are not read. */
    private @Nullable ValueFormat keyFormat;

    /** Avro schema of GenericRecord values, e.g. classpath:order.avsc (format avro without a SpecificRecord type). */
    private @Nullable Resource schema;

    /** Charset of format string (and of key-format string). */
    private Charset charset = StandardCharsets.UTF_8;

    /** Bean name of a KafkaRecordDeserializer or Flink DeserializationSchema; unset: the only such bean. */
    private @Nullable String deserializer;

    /** Bean name of a KafkaRecordEmitter (0..n elements per record); instead of a deserializer. */
    private @Nullable String recordEmitter;

    /** Element class: what format json or avro reads into, or the type of a deserializer bean that hides it (a lambda). */
    private @Nullable Class<?> type;

    /** Fields of format json values without a type, by name, as SQL types (e.g. id: STRING, amount: DECIMAL(10, 2)): elements are Flink Rows, and a SQL table of this source gets these columns. */
    private Map<String, String> columns = new LinkedHashMap<>();

    /** What to do with a record the deserializer cannot handle: fail, skip or dead-letter. */
    private BadRecordPolicy badRecordPolicy = BadRecordPolicy.FAIL;

    /** Topic that receives bad records (raw bytes plus streamsplit.dlt.* error headers); required for dead-letter. */
    private @Nullable String deadLetterTopic;

    /** Whether to commit offsets to the consumer group on checkpoints. Unset: commit when a group id is set. */
    private @Nullable Boolean commitOffsets;

    /** Prefix of the Kafka client ids of this source's consumers. Unset: 'streamsplit-' plus the source name. */
    private @Nullable String clientIdPrefix;

    /** Rack to fetch from (Kafka's client.rack: the closest replica), or env:NAME to read it on each TaskManager. */
    private @Nullable String clientRack;

    /**
     * Operator uid of the source: savepoints keep its offsets under it. Unset: '<name>-source'. To take over
     * the savepoint of a hand-written job, set the uid its KafkaSource had.
     */
    private @Nullable String uid;

    /** Event-time watermarks of this source. */
    private final SourceWatermarks watermarks = new SourceWatermarks();

    /** Extra Kafka consumer properties for this source; they override streamsplit.kafka.properties. */
    private Map<String, String> properties = new LinkedHashMap<>();

    /**
     * Sets the settings that map one to one onto the connector's builder; unset ones keep the builder's
     * default. The builder checks the values and names the setting of one it rejects, which the starter
     * reports under its property path ({@link SourcePropertyPaths}).
     */
    void applyTo(StreamSplitKafkaSourceBuilder<?> builder) {
        PropertyMapper map = PropertyMapper.get();
        map.from(groupId).to(builder::setGroupId);
        map.from(effectiveOnOffsetOutOfRange()).to(builder::setOffsetResetStrategy);
        map.from(commitOffsets).to(builder::setCommitOffsetsOnCheckpoint);
        map.from(clientIdPrefix).to(builder::setClientIdPrefix);
        map.from(clientRack).to(builder::setClientRack);
        map.from(badRecordPolicy).to(builder::setBadRecordPolicy);
    }

    /**
     * The partition an entry of {@code starting-specific-offsets} or {@code stopping-specific-offsets} names, as Kafka
     * writes it ({@code <topic>-<partition>}); {@code null} for an entry that is not one.
     */
    public static org.apache.kafka.common.@Nullable TopicPartition partitionOf(String entry) {
        int dash = entry.lastIndexOf('-');
        if (dash <= 0) {
            return null;
        }
        try {
            int partition = Integer.parseInt(entry.substring(dash + 1));
            return partition < 0
                    ? null
                    : new org.apache.kafka.common.TopicPartition(entry.substring(0, dash), partition);
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    public @Nullable String getClientRack() {
        return clientRack;
    }

    public void setClientRack(@Nullable String clientRack) {
        this.clientRack = clientRack;
    }

    public @Nullable String getUid() {
        return uid;
    }

    public void setUid(@Nullable String uid) {
        this.uid = uid;
    }

    public List<String> getTopics() {
        return topics;
    }

    public void setTopics(List<String> topics) {
        this.topics = topics;
    }

    public @Nullable String getPattern() {
        return pattern;
    }

    public void setPattern(@Nullable String pattern) {
        this.pattern = pattern;
    }

    public List<String> getBootstrapServers() {
        return bootstrapServers;
    }

    public void setBootstrapServers(List<String> bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public @Nullable String getGroupId() {
        return groupId;
    }

    public void setGroupId(@Nullable String groupId) {
        this.groupId = groupId;
    }

    public StartingOffsets.@Nullable Kind getStartingOffsets() {
        return startingOffsets;
    }

    public void setStartingOffsets(StartingOffsets.@Nullable Kind startingOffsets) {
        this.startingOffsets = startingOffsets;
    }

    public @Nullable Instant getStartingTimestamp() {
        return startingTimestamp;
    }

    public void setStartingTimestamp(@Nullable Instant startingTimestamp) {
        this.startingTimestamp = startingTimestamp;
    }

    public Map<String, Long> getStartingSpecificOffsets() {
        return startingSpecificOffsets;
    }

    public void setStartingSpecificOffsets(Map<String, Long> startingSpecificOffsets) {
        this.startingSpecificOffsets = startingSpecificOffsets;
    }

    public @Nullable OffsetResetStrategy getOnOffsetOutOfRange() {
        return onOffsetOutOfRange;
    }

    public void setOnOffsetOutOfRange(@Nullable OffsetResetStrategy onOffsetOutOfRange) {
        this.onOffsetOutOfRange = onOffsetOutOfRange;
    }

    public @Nullable OffsetResetStrategy getOnMissingCommit() {
        return onMissingCommit;
    }

    public void setOnMissingCommit(@Nullable OffsetResetStrategy onMissingCommit) {
        this.onMissingCommit = onMissingCommit;
    }

    @Deprecated
    @DeprecatedConfigurationProperty(
            reason = "It set two things at once: use on-offset-out-of-range (an offset gone from the log) and"
                    + " on-missing-commit (a partition without a commit).",
            replacement = "streamsplit.kafka.sources.*.on-offset-out-of-range",
            since = "0.1.0")
    public @Nullable OffsetResetStrategy getOffsetResetStrategy() {
        return offsetResetStrategy;
    }

    @Deprecated // see getOffsetResetStrategy
    public void setOffsetResetStrategy(@Nullable OffsetResetStrategy offsetResetStrategy) {
        this.offsetResetStrategy = offsetResetStrategy;
    }

    /** {@code on-offset-out-of-range} as set, else the deprecated key, else earliest. */
    public OffsetResetStrategy effectiveOnOffsetOutOfRange() {
        return effectiveOnOffsetOutOfRange(null);
    }

    /** {@code on-offset-out-of-range} as set, else the deprecated key, else {@code fallback}, else earliest. */
    public OffsetResetStrategy effectiveOnOffsetOutOfRange(@Nullable OffsetResetStrategy fallback) {
        return firstSet(onOffsetOutOfRange, fallback);
    }

    /** {@code on-missing-commit} as set, else the deprecated key, else earliest. */
    public OffsetResetStrategy effectiveOnMissingCommit() {
        return effectiveOnMissingCommit(null);
    }

    /** {@code on-missing-commit} as set, else the deprecated key, else {@code fallback}, else earliest. */
    public OffsetResetStrategy effectiveOnMissingCommit(@Nullable OffsetResetStrategy fallback) {
        return firstSet(onMissingCommit, fallback);
    }

    private OffsetResetStrategy firstSet(@Nullable OffsetResetStrategy own, @Nullable OffsetResetStrategy fallback) {
        if (own != null) {
            return own;
        }
        if (offsetResetStrategy != null) {
            return offsetResetStrategy;
        }
        return fallback != null ? fallback : OffsetResetStrategy.EARLIEST;
    }

    public StoppingOffsets.@Nullable Kind getStoppingOffsets() {
        return stoppingOffsets;
    }

    public void setStoppingOffsets(StoppingOffsets.@Nullable Kind stoppingOffsets) {
        this.stoppingOffsets = stoppingOffsets;
    }

    public @Nullable Instant getStoppingTimestamp() {
        return stoppingTimestamp;
    }

    public void setStoppingTimestamp(@Nullable Instant stoppingTimestamp) {
        this.stoppingTimestamp = stoppingTimestamp;
    }

    public Map<String, Long> getStoppingSpecificOffsets() {
        return stoppingSpecificOffsets;
    }

    public void setStoppingSpecificOffsets(Map<String, Long> stoppingSpecificOffsets) {
        this.stoppingSpecificOffsets = stoppingSpecificOffsets;
    }

    public @Nullable String getDeserializer() {
        return deserializer;
    }

    public void setDeserializer(@Nullable String deserializer) {
        this.deserializer = deserializer;
    }

    public @Nullable ValueFormat getFormat() {
        return format;
    }

    public void setFormat(@Nullable ValueFormat format) {
        this.format = format;
    }

    public @Nullable ValueFormat getKeyFormat() {
        return keyFormat;
    }

    public void setKeyFormat(@Nullable ValueFormat keyFormat) {
        this.keyFormat = keyFormat;
    }

    public @Nullable Resource getSchema() {
        return schema;
    }

    public void setSchema(@Nullable Resource schema) {
        this.schema = schema;
    }

    public Charset getCharset() {
        return charset;
    }

    public void setCharset(Charset charset) {
        this.charset = charset;
    }

    public @Nullable String getRecordEmitter() {
        return recordEmitter;
    }

    public void setRecordEmitter(@Nullable String recordEmitter) {
        this.recordEmitter = recordEmitter;
    }

    public Map<String, String> getColumns() {
        return columns;
    }

    public void setColumns(Map<String, String> columns) {
        this.columns = columns;
    }

    public @Nullable Class<?> getType() {
        return type;
    }

    public void setType(@Nullable Class<?> type) {
        this.type = type;
    }

    public BadRecordPolicy getBadRecordPolicy() {
        return badRecordPolicy;
    }

    public void setBadRecordPolicy(BadRecordPolicy badRecordPolicy) {
        this.badRecordPolicy = badRecordPolicy;
    }

    public @Nullable String getDeadLetterTopic() {
        return deadLetterTopic;
    }

    public void setDeadLetterTopic(@Nullable String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    public @Nullable Boolean getCommitOffsets() {
        return commitOffsets;
    }

    public void setCommitOffsets(@Nullable Boolean commitOffsets) {
        this.commitOffsets = commitOffsets;
    }

    public @Nullable String getClientIdPrefix() {
        return clientIdPrefix;
    }

    public void setClientIdPrefix(@Nullable String clientIdPrefix) {
        this.clientIdPrefix = clientIdPrefix;
    }

    public SourceWatermarks getWatermarks() {
        return watermarks;
    }

    public Map<String, String> getProperties() {
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }
}
