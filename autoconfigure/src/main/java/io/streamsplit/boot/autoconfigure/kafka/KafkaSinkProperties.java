package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.ValueFormat;
import io.streamsplit.connector.kafka.sink.ExactlyOnceKafkaClients;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.io.Resource;

/**
 * One named Kafka sink, {@code streamsplit.kafka.sinks.<name>.*}, written with Flink's official
 * {@code KafkaSink}.
 */
public class KafkaSinkProperties {

    /** What a sink does with a record larger than its producer's {@code max.request.size}. */
    public enum OversizeRecordPolicy {
        /** Fail the job at the record: it fails again at it after every restart, until the limit is raised. */
        FAIL,
        /** Leave the record out, count it ({@code numRecordsSkippedTooLarge}) and say so in the log; go on. */
        SKIP
    }

    /** Below a stock broker's 15-minute transaction.max.timeout.ms, well above a checkpoint interval. */
    static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofMinutes(10);

    private static final Duration BROKER_TRANSACTION_CAP = Duration.ofMinutes(15);

    /**
     * Exactly-once needs checkpoints (one transaction per checkpoint) and a transaction timeout that
     * outlasts a checkpoint interval plus a restart; sets the default timeout on {@code producer}.
     */
    static void checkExactlyOnce(String p, Properties producer, FlinkProperties flink) {
        checkKafkaClients(p, ExactlyOnceKafkaClients.version(), SpringBootVersion.getVersion());
        if (!flink.getCheckpointing().isEnabled()) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "delivery-guarantee",
                    "exactly-once",
                    "exactly-once commits one Kafka transaction per checkpoint, but checkpointing is off"
                            + " (streamsplit.flink.checkpointing.enabled=false)",
                    "Turn checkpointing on, or use delivery-guarantee at-least-once.");
        }
        Duration timeout = KafkaSinkProperties.transactionTimeout(producer);
        producer.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, String.valueOf(timeout.toMillis()));
        Duration interval = flink.getCheckpointing().getInterval();
        // a transaction stays open for a checkpoint interval, plus the longest restart wait before it is committed
        Duration needed = interval.plus(flink.getRestart().longestDelay()).plus(Duration.ofMinutes(1));
        if (timeout.compareTo(needed) < 0) {
            Duration suggested = needed.multipliedBy(2).compareTo(BROKER_TRANSACTION_CAP) > 0
                    ? BROKER_TRANSACTION_CAP
                    : needed.multipliedBy(2);
            throw new InvalidStreamSplitConfigurationException(
                    p + "properties.transaction.timeout.ms",
                    timeout.toMillis(),
                    "a transaction stays open for a whole checkpoint interval (" + interval + ") plus restart time;"
                            + " the broker aborts it after " + timeout.toMillis() + " ms and its records are lost",
                    "Use transaction.timeout.ms=" + suggested.toMillis() + " (at least " + needed.toMillis()
                            + ", at most the broker's transaction.max.timeout.ms, 900000 by default), or remove it"
                            + " for the default " + KafkaSinkProperties.DEFAULT_TRANSACTION_TIMEOUT.toMillis() + ".");
        }
    }

    /**
     * An exactly-once sink runs only on a kafka-clients line its recovery tests ran on ({@link
     * ExactlyOnceKafkaClients}): the application's Spring Boot picks the kafka-clients, and on an untested
     * line the official sink's use of producer internals fails at the first checkpoint or the first restart.
     */
    static void checkKafkaClients(String p, String kafkaClients, @Nullable String springBoot) {
        ExactlyOnceKafkaClients.untested(kafkaClients).ifPresent(pin -> {
            throw new InvalidStreamSplitConfigurationException(
                    p + "delivery-guarantee",
                    "exactly-once",
                    "the class path has kafka-clients " + kafkaClients
                            + (springBoot == null
                                    ? ""
                                    : " (the version Spring Boot " + springBoot + " manages, unless the pom sets it)")
                            + ", and Flink's exactly-once Kafka sink, which reaches into the producer's internals, is"
                            + " tested with kafka-clients " + ExactlyOnceKafkaClients.testedLines() + " only",
                    "Pin a tested kafka-clients with Spring Boot's property in the pom: <properties><kafka.version>"
                            + pin + "</kafka.version></properties> (Gradle: ext['kafka.version'] = '" + pin
                            + "'), or use delivery-guarantee at-least-once.");
        });
    }

    /** The transaction timeout an exactly-once sink with these producer settings uses. */
    public static Duration transactionTimeout(Map<?, ?> producer) {
        Object ms = producer.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        return ms == null
                ? DEFAULT_TRANSACTION_TIMEOUT
                : Duration.ofMillis(Long.parseLong(ms.toString().trim()));
    }

    /** Topic to write to. Set either this or topic-selector. */
    private @Nullable String topic;

    /** Bean name of a TopicSelector choosing each record's topic. Set either this or {@code topic}. */
    private @Nullable String topicSelector;

    /**
     * Whether the sink may write into a topic one of the application's sources reads (a loop the job feeds
     * itself, e.g. a retry topic); refused at startup otherwise.
     */
    private boolean allowFeedbackLoop = false;

    /** Kafka bootstrap servers for this sink; defaults to streamsplit.kafka.bootstrap-servers, then Spring Boot's Kafka settings. */
    private List<String> bootstrapServers = new ArrayList<>();

    /** Delivery guarantee: none, at-least-once, or exactly-once (one Kafka transaction per checkpoint). */
    private DeliveryGuarantee deliveryGuarantee = DeliveryGuarantee.AT_LEAST_ONCE;

    /** Prefix of the Kafka transactional ids (exactly-once); unique per sink on a Kafka cluster. Unset: <job name>-<sink name>. */
    private @Nullable String transactionalIdPrefix;

    /** Built-in value format of the stream's elements: json, avro, avro-confluent, json-schema-confluent, protobuf, string or bytes. Unset: a serializer bean. */
    private @Nullable ValueFormat format;

    /** Field (record component, public field or getter) of the element written as the record key, as UTF-8 text. */
    private @Nullable String key;

    /** Avro schema of GenericRecord elements, e.g. classpath:order.avsc (format avro); the JSON Schema the sink registers (format json-schema-confluent). */
    private @Nullable Resource schema;

    /** Charset of format string. */
    private Charset charset = StandardCharsets.UTF_8;

    /** Bean name of a Flink SerializationSchema for the value, or of a KafkaRecordSerializationSchema; unset: the only such bean. */
    private @Nullable String serializer;

    /** Bean name of a Flink SerializationSchema for the record key. Unset: records have no key. */
    private @Nullable String keySerializer;

    /** Extra Kafka producer properties for this sink; they override streamsplit.kafka.properties. */
    private Map<String, String> properties = new LinkedHashMap<>();

    /**
     * What to do with a record larger than the producer's max.request.size: fail the job (at it, after every
     * restart too), or skip it, counted and logged.
     */
    private OversizeRecordPolicy oversizeRecordPolicy = OversizeRecordPolicy.FAIL;

    /**
     * Operator uid of the sink: savepoints keep its writer's and committer's state under it. Unset:
     * 'streamsplit-sink-<name>'. To take over the savepoint of a hand-written job, set the uid its KafkaSink had.
     */
    private @Nullable String uid;

    public OversizeRecordPolicy getOversizeRecordPolicy() {
        return oversizeRecordPolicy;
    }

    public void setOversizeRecordPolicy(OversizeRecordPolicy oversizeRecordPolicy) {
        this.oversizeRecordPolicy = oversizeRecordPolicy;
    }

    public @Nullable String getUid() {
        return uid;
    }

    public void setUid(@Nullable String uid) {
        this.uid = uid;
    }

    public @Nullable String getTopic() {
        return topic;
    }

    public void setTopic(@Nullable String topic) {
        this.topic = topic;
    }

    public boolean isAllowFeedbackLoop() {
        return allowFeedbackLoop;
    }

    public void setAllowFeedbackLoop(boolean allowFeedbackLoop) {
        this.allowFeedbackLoop = allowFeedbackLoop;
    }

    public @Nullable String getTopicSelector() {
        return topicSelector;
    }

    public void setTopicSelector(@Nullable String topicSelector) {
        this.topicSelector = topicSelector;
    }

    public List<String> getBootstrapServers() {
        return bootstrapServers;
    }

    public void setBootstrapServers(List<String> bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public DeliveryGuarantee getDeliveryGuarantee() {
        return deliveryGuarantee;
    }

    public void setDeliveryGuarantee(DeliveryGuarantee deliveryGuarantee) {
        this.deliveryGuarantee = deliveryGuarantee;
    }

    public @Nullable String getTransactionalIdPrefix() {
        return transactionalIdPrefix;
    }

    public void setTransactionalIdPrefix(@Nullable String transactionalIdPrefix) {
        this.transactionalIdPrefix = transactionalIdPrefix;
    }

    public @Nullable ValueFormat getFormat() {
        return format;
    }

    public void setFormat(@Nullable ValueFormat format) {
        this.format = format;
    }

    public @Nullable String getKey() {
        return key;
    }

    public void setKey(@Nullable String key) {
        this.key = key;
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

    public @Nullable String getSerializer() {
        return serializer;
    }

    public void setSerializer(@Nullable String serializer) {
        this.serializer = serializer;
    }

    public @Nullable String getKeySerializer() {
        return keySerializer;
    }

    public void setKeySerializer(@Nullable String keySerializer) {
        this.keySerializer = keySerializer;
    }

    public Map<String, String> getProperties() {
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }
}
