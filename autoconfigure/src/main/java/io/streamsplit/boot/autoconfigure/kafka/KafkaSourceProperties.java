package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.kafka.format.ValueFormat;
import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.Resource;

/**
 * One named Kafka source, {@code streamsplit.kafka.sources.<name>.*}. Unset values mean "use the
 * default"; every default is listed in the configuration metadata.
 */
public class KafkaSourceProperties {

    /** Where a new job starts reading (a job restored from a checkpoint continues from it). */
    public enum StartingOffsetsMode {
        /** The earliest offset still in each partition. */
        EARLIEST,
        /** The end of each partition: only records written after the job starts. */
        LATEST,
        /** The consumer group's committed offsets; partitions without a commit use the offset reset strategy. */
        COMMITTED,
        /** The first offset whose record timestamp is at or after {@code starting-timestamp}. */
        TIMESTAMP
    }

    /** Where a bounded source stops; {@code none} keeps the source unbounded. */
    public enum StoppingOffsetsMode {
        /** Unbounded: read until the job is stopped. */
        NONE,
        /** Stop at the end offsets found when the job starts. */
        LATEST,
        /** Stop before the first record whose timestamp is after {@code stopping-timestamp}. */
        TIMESTAMP
    }

    /** How event-time watermarks are generated for this source. */
    public enum WatermarkMode {
        /** No watermarks: processing-time pipelines. */
        NONE,
        /** Timestamps only ever increase per partition. */
        MONOTONOUS,
        /** Timestamps arrive out of order by at most {@code max-out-of-orderness}. */
        BOUNDED_OUT_OF_ORDERNESS
    }

    /** Topics to read. Set either this or {@code pattern}. */
    private List<String> topics = new ArrayList<>();

    /** Regular expression of topics to read, matched on every partition discovery. Set either this or {@code topics}. */
    private @Nullable String pattern;

    /** Kafka bootstrap servers for this source; defaults to streamsplit.kafka.bootstrap-servers, then Spring Boot's Kafka settings. */
    private List<String> bootstrapServers = new ArrayList<>();

    /** Consumer group id; offsets are committed to it on every completed checkpoint (for monitoring). */
    private @Nullable String groupId;

    /** Where a new job starts reading. */
    private StartingOffsetsMode startingOffsets = StartingOffsetsMode.EARLIEST;

    /** Record time to start from when starting-offsets is 'timestamp' (ISO-8601 instant or epoch milliseconds). */
    private @Nullable Instant startingTimestamp;

    /** What to do when an offset to read from is no longer in the log (deleted by retention). Unset: earliest. */
    private @Nullable OffsetResetStrategy onOffsetOutOfRange;

    /** Where starting-offsets 'committed' starts a partition the consumer group has no commit for. Unset: earliest. */
    private @Nullable OffsetResetStrategy onMissingCommit;

    /** Deprecated: both on-offset-out-of-range and on-missing-commit at once; those two win when set. */
    private @Nullable OffsetResetStrategy offsetResetStrategy;

    /** Where the source stops; 'none' keeps it unbounded. */
    private StoppingOffsetsMode stoppingOffsets = StoppingOffsetsMode.NONE;

    /** Record time to stop at when stopping-offsets is 'timestamp' (ISO-8601 instant or epoch milliseconds). */
    private @Nullable Instant stoppingTimestamp;

    /** How often to look for new partitions and topics, and for deleted ones. Unset: only once at start. */
    private @Nullable Duration discoveryInterval;

    /** At most this many records per second for the whole source, split evenly over its readers. Unset: unthrottled. */
    private @Nullable Double maxRecordsPerSecond;

    /** Built-in value format: json, avro, string or bytes. Unset: a deserializer or record-emitter bean. */
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

    /** What to do with a record the deserializer cannot handle: fail, skip or dead-letter. */
    private BadRecordPolicy badRecordPolicy = BadRecordPolicy.FAIL;

    /** Topic that receives bad records (raw bytes plus streamsplit.dlt.* error headers); required for dead-letter. */
    private @Nullable String deadLetterTopic;

    /** Whether to commit offsets to the consumer group on checkpoints. Unset: commit when a group id is set. */
    private @Nullable Boolean commitOffsets;

    /** Prefix of the Kafka client ids of this source's consumers. Unset: 'streamsplit-' plus the source name. */
    private @Nullable String clientIdPrefix;

    /** Operator uid, under which savepoints keep the offsets. Unset: '<name>-source' (migrating.md: a KafkaSource's). */
    private @Nullable String uid;

    /** Event-time watermarks of this source. */
    private final Watermarks watermarks = new Watermarks();

    /** Extra Kafka consumer properties for this source; they override streamsplit.kafka.properties. */
    private Map<String, String> properties = new LinkedHashMap<>();

    /** Event-time watermark settings of one source. */
    public static class Watermarks {

        /** Watermark strategy. */
        private WatermarkMode strategy = WatermarkMode.NONE;

        /** Largest expected lateness of a record, for 'bounded-out-of-orderness'. */
        private Duration maxOutOfOrderness = Duration.ofSeconds(5);

        /** A partition without records for this long stops holding back the watermark. Unset: never idle. */
        private @Nullable Duration idleTimeout;

        public WatermarkMode getStrategy() {
            return strategy;
        }

        public void setStrategy(WatermarkMode strategy) {
            this.strategy = strategy;
        }

        public Duration getMaxOutOfOrderness() {
            return maxOutOfOrderness;
        }

        public void setMaxOutOfOrderness(Duration maxOutOfOrderness) {
            this.maxOutOfOrderness = maxOutOfOrderness;
        }

        public @Nullable Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(@Nullable Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }
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

    public StartingOffsetsMode getStartingOffsets() {
        return startingOffsets;
    }

    public void setStartingOffsets(StartingOffsetsMode startingOffsets) {
        this.startingOffsets = startingOffsets;
    }

    public @Nullable Instant getStartingTimestamp() {
        return startingTimestamp;
    }

    public void setStartingTimestamp(@Nullable Instant startingTimestamp) {
        this.startingTimestamp = startingTimestamp;
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

    @Deprecated // it set two things at once: on-offset-out-of-range and on-missing-commit
    public @Nullable OffsetResetStrategy getOffsetResetStrategy() {
        return offsetResetStrategy;
    }

    @Deprecated // see getOffsetResetStrategy
    public void setOffsetResetStrategy(@Nullable OffsetResetStrategy offsetResetStrategy) {
        this.offsetResetStrategy = offsetResetStrategy;
    }

    /** {@code on-offset-out-of-range} as set, else the deprecated key, else earliest. */
    public OffsetResetStrategy effectiveOnOffsetOutOfRange() {
        return firstSet(onOffsetOutOfRange);
    }

    /** {@code on-missing-commit} as set, else the deprecated key, else earliest. */
    public OffsetResetStrategy effectiveOnMissingCommit() {
        return firstSet(onMissingCommit);
    }

    private OffsetResetStrategy firstSet(@Nullable OffsetResetStrategy own) {
        return own != null ? own : offsetResetStrategy != null ? offsetResetStrategy : OffsetResetStrategy.EARLIEST;
    }

    public StoppingOffsetsMode getStoppingOffsets() {
        return stoppingOffsets;
    }

    public void setStoppingOffsets(StoppingOffsetsMode stoppingOffsets) {
        this.stoppingOffsets = stoppingOffsets;
    }

    public @Nullable Instant getStoppingTimestamp() {
        return stoppingTimestamp;
    }

    public void setStoppingTimestamp(@Nullable Instant stoppingTimestamp) {
        this.stoppingTimestamp = stoppingTimestamp;
    }

    public @Nullable Duration getDiscoveryInterval() {
        return discoveryInterval;
    }

    public void setDiscoveryInterval(@Nullable Duration discoveryInterval) {
        this.discoveryInterval = discoveryInterval;
    }

    public @Nullable Double getMaxRecordsPerSecond() {
        return maxRecordsPerSecond;
    }

    public void setMaxRecordsPerSecond(@Nullable Double maxRecordsPerSecond) {
        this.maxRecordsPerSecond = maxRecordsPerSecond;
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

    public Watermarks getWatermarks() {
        return watermarks;
    }

    public Map<String, String> getProperties() {
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }
}
