package io.streamsplit.boot.autoconfigure;

import java.time.Duration;
import java.util.Properties;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchemaBuilder;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Builds Flink's official {@link KafkaSink} from {@code streamsplit.kafka.sinks.<name>}, and the
 * dead-letter sinks of sources with {@code bad-record-policy: dead-letter}.
 */
final class KafkaSinkFactory implements SmartInitializingSingleton {

    /** Below a stock broker's 15-minute transaction.max.timeout.ms, well above a checkpoint interval. */
    static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofMinutes(10);

    private final StreamSplitProperties.Kafka kafka;
    private final FlinkProperties flink;
    private final KafkaBootstrapServers bootstrapServers;
    private final UserBeans beans;

    KafkaSinkFactory(StreamSplitProperties.Kafka kafka, FlinkProperties flink, KafkaBootstrapServers bootstrapServers,
            UserBeans beans) {
        this.kafka = kafka;
        this.flink = flink;
        this.bootstrapServers = bootstrapServers;
        this.beans = beans;
    }

    /** Builds every configured sink once at startup, so a bad one fails startup even if no pipeline uses it yet. */
    @Override
    public void afterSingletonsInstantiated() {
        kafka.getSinks().keySet().forEach(name -> create(name, TypeInformation.of(Object.class)));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    <T> KafkaSink<T> create(String name, TypeInformation<T> elementType) {
        KafkaSinkProperties sink = kafka.getSinks().get(name);
        if (sink == null) {
            throw new InvalidStreamSplitConfigurationException("streamsplit.kafka.sinks", name,
                    "no sink named '" + name + "' is configured",
                    "Use one of " + kafka.getSinks().keySet() + ", or add streamsplit.kafka.sinks." + name + ".topic.");
        }
        String p = "streamsplit.kafka.sinks." + name + ".";
        UserBeans.Found value = beans.find(p + "serializer", sink.getSerializer(), "serializer",
                SerializationSchema.class, KafkaRecordSerializationSchema.class);
        SerializabilityCheck.requireSerializable(p + "serializer", value.name(), value.bean());
        KafkaRecordSerializationSchema<T> serializer;
        if (value.bean() instanceof KafkaRecordSerializationSchema<?> full) {
            if (sink.getKeySerializer() != null) {
                throw new InvalidStreamSplitConfigurationException(p + "key-serializer", sink.getKeySerializer(),
                        "serializer '" + value.name() + "' is a KafkaRecordSerializationSchema, which writes the key itself",
                        "Remove " + p + "key-serializer.");
            }
            serializer = (KafkaRecordSerializationSchema<T>) full;
        } else {
            KafkaRecordSerializationSchemaBuilder<T> builder = KafkaRecordSerializationSchema.builder()
                    .setTopic(required(p + "topic", sink.getTopic()))
                    .setValueSerializationSchema(typed((SerializationSchema<T>) value.bean(), elementType));
            if (sink.getKeySerializer() != null) {
                UserBeans.Found key = beans.find(p + "key-serializer", sink.getKeySerializer(), "key serializer",
                        SerializationSchema.class);
                SerializabilityCheck.requireSerializable(p + "key-serializer", key.name(), key.bean());
                builder.setKeySerializationSchema(typed((SerializationSchema<T>) key.bean(), elementType));
            }
            serializer = builder.build();
        }
        Properties producer = producerProperties(p, sink.getProperties());
        return build(p, sink.getBootstrapServers(), sink.getDeliveryGuarantee(), sink.getTransactionalIdPrefix(),
                producer, serializer);
    }

    private static <T> SerializationSchema<T> typed(SerializationSchema<T> schema, TypeInformation<T> type) {
        return schema instanceof ResultTypeQueryable<?> ? schema : new TypedSerializationSchema<>(schema, type);
    }

    /** The sink for the dead letters of source {@code sourceName}, with the raw record plus error headers. */
    KafkaSink<DeadLetterRecord> deadLetters(String sourceName) {
        KafkaSourceProperties source = kafka.getSources().get(sourceName);
        String p = KafkaSourceFactory.prefix(sourceName);
        String topic = source.getDeadLetterTopic();
        KafkaRecordSerializationSchema<DeadLetterRecord> serializer =
                (record, context, timestamp) -> record.toProducerRecord(topic);
        return build(p + "dead-letter-topic", source.getBootstrapServers(), DeliveryGuarantee.AT_LEAST_ONCE, null,
                producerProperties(p, source.getProperties()), serializer);
    }

    private Properties producerProperties(String p, java.util.Map<String, String> own) {
        Properties producer = new Properties();
        producer.putAll(kafka.getProperties());
        producer.putAll(own);
        return producer;
    }

    private <T> KafkaSink<T> build(String p, java.util.List<String> servers, DeliveryGuarantee guarantee,
            String transactionalIdPrefix, Properties producer, KafkaRecordSerializationSchema<T> serializer) {
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            checkExactlyOnce(p, transactionalIdPrefix, producer);
        }
        var builder = KafkaSink.<T>builder()
                .setBootstrapServers(bootstrapServers.resolve(p + "bootstrap-servers", servers))
                .setDeliveryGuarantee(guarantee)
                .setKafkaProducerConfig(producer)
                .setRecordSerializer(serializer);
        if (transactionalIdPrefix != null) {
            builder.setTransactionalIdPrefix(transactionalIdPrefix);
        }
        return builder.build();
    }

    private void checkExactlyOnce(String p, String prefix, Properties producer) {
        if (!flink.getCheckpointing().isEnabled()) {
            throw new InvalidStreamSplitConfigurationException(p + "delivery-guarantee", "exactly-once",
                    "exactly-once commits one Kafka transaction per checkpoint, but checkpointing is off"
                            + " (streamsplit.flink.checkpointing.enabled=false)",
                    "Turn checkpointing on, or use delivery-guarantee at-least-once.");
        }
        if (prefix == null || prefix.isBlank()) {
            throw new InvalidStreamSplitConfigurationException(p + "transactional-id-prefix", null,
                    "exactly-once needs a transactional id prefix that no other job on this Kafka cluster uses",
                    "Set " + p + "transactional-id-prefix, e.g. to the application name.");
        }
        Object configured = producer.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        Duration timeout = configured == null ? DEFAULT_TRANSACTION_TIMEOUT
                : Duration.ofMillis(Long.parseLong(configured.toString().trim()));
        producer.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, String.valueOf(timeout.toMillis()));
        Duration interval = flink.getCheckpointing().getInterval();
        if (interval != null && timeout.compareTo(interval) <= 0) {
            throw new InvalidStreamSplitConfigurationException(p + "properties.transaction.timeout.ms", timeout.toMillis(),
                    "a transaction stays open for a whole checkpoint interval (" + interval + ") plus restart time,"
                            + " so a timeout this short aborts it and loses its records",
                    "Raise transaction.timeout.ms well above streamsplit.flink.checkpointing.interval"
                            + " (and at most the broker's transaction.max.timeout.ms, 15 minutes by default).");
        }
    }

    private static String required(String property, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidStreamSplitConfigurationException(property, null, "the sink has no topic",
                    "Set " + property + ".");
        }
        return value;
    }
}
