package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaAccessCheck;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.kafka.format.KafkaFormats;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.boot.kafka.ValueFormat;
import io.streamsplit.connector.kafka.format.BytesFormat;
import io.streamsplit.connector.kafka.sink.DeadLetterSerializationSchema;
import io.streamsplit.connector.kafka.sink.ObservedSerializationSchema;
import io.streamsplit.connector.kafka.sink.OversizeRecordGuard;
import io.streamsplit.connector.kafka.sink.RestoredTransactionsKafkaSink;
import io.streamsplit.connector.kafka.sink.TypedSerializationSchema;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.connector.kafka.trace.RecordTracer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchemaBuilder;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Builds Flink's official {@link KafkaSink} from {@code streamsplit.kafka.sinks.<name>}, and the
 * dead-letter sinks of sources with {@code bad-record-policy: dead-letter}. Dead letters are
 * written with the strongest guarantee among the configured sinks (the pipeline's output
 * guarantee), so under exactly-once a bad record reaches its topic exactly once too.
 */
public final class KafkaSinkFactory implements KafkaSinks, SmartInitializingSingleton {

    private final StreamSplitKafkaProperties kafka;
    private final FlinkProperties flink;
    private final KafkaBootstrapServers bootstrapServers;
    private final UserBeans beans;
    private final KafkaFormats formats;
    private final KafkaClientProperties clientProperties;
    private final List<StreamSplitKafkaSinkCustomizer> customizers;
    private final String applicationId;
    private final TransactionalIds transactionalIds;
    private final SinkTopics topics;

    public KafkaSinkFactory(
            StreamSplitKafkaProperties kafka,
            KafkaClientProperties clientProperties,
            FlinkProperties flink,
            String jobName,
            KafkaBootstrapServers bootstrapServers,
            UserBeans beans,
            KafkaFormats formats,
            List<StreamSplitKafkaSinkCustomizer> customizers,
            String applicationId) {
        this.applicationId = applicationId;
        this.formats = formats;
        this.customizers = List.copyOf(customizers);
        this.kafka = kafka;
        this.clientProperties = clientProperties;
        this.flink = flink;
        this.bootstrapServers = bootstrapServers;
        this.beans = beans;
        this.transactionalIds =
                new TransactionalIds(kafka, jobName, clientProperties.spring().transactionIdPrefix());
        this.topics = new SinkTopics(kafka, bootstrapServers, beans);
    }

    /**
     * Builds every configured sink once at startup, so a bad one fails startup even if no pipeline
     * uses it yet, and checks that no two transactional sinks share a transactional id prefix.
     */
    @Override
    public void afterSingletonsInstantiated() {
        kafka.getSinks().keySet().forEach(name -> create(name, null));
        transactionalIds.requireDistinct();
    }

    @Override
    public Map<String, Configured> configured() {
        Map<String, Configured> configured = new LinkedHashMap<>();
        kafka.getSinks()
                .forEach((name, sink) -> configured.put(
                        name,
                        new Configured(sink.getTopic(), sink.getDeliveryGuarantee(), sink.getKey(), sink.getFormat())));
        return configured;
    }

    /** The operator uid of sink {@code name}: {@code uid} as configured, else {@code streamsplit-sink-<name>}. */
    @Override
    public String uid(String name) {
        KafkaSinkProperties sink = kafka.getSinks().get(name);
        String uid = sink == null || sink.getUid() == null ? "streamsplit-sink-" + name : sink.getUid();
        if (uid.isBlank()) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.kafka.sinks." + name + ".uid",
                    uid,
                    "the uid is blank",
                    "Remove it (the sink's uid is then 'streamsplit-sink-" + name
                            + "'), or set the uid its state is kept under in the savepoint to restore.");
        }
        return uid;
    }

    /**
     * The sink {@code name} for a stream of {@code elementType}; {@code null} for the startup check of
     * every sink, before any stream is known.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public <T> Sink<T> create(String name, @Nullable TypeInformation<T> elementType) {
        KafkaSinkProperties sink = kafka.getSinks().get(name);
        if (sink == null) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.kafka.sinks",
                    name,
                    "no sink named '" + name + "' is configured",
                    "Use one of " + kafka.getSinks().keySet() + ", or add streamsplit.kafka.sinks." + name + ".topic.");
        }
        String p = "streamsplit.kafka.sinks." + name + ".";
        TypeInformation<T> type =
                elementType == null ? (TypeInformation<T>) TypeInformation.of(Object.class) : elementType;
        SerializationSchema<T> value;
        if (sink.getFormat() != null) {
            value = formatted(sink, p, elementType);
        } else {
            UserBeans.Found bean = beans.find(
                    p + "serializer",
                    sink.getSerializer(),
                    "serializer",
                    SerializationSchema.class,
                    KafkaRecordSerializationSchema.class);
            beans.requireShippable(p + "serializer", bean);
            if (bean.bean() instanceof KafkaRecordSerializationSchema<?> full) {
                if (sink.getKeySerializer() != null || sink.getKey() != null || sink.getTopicSelector() != null) {
                    throw new InvalidStreamSplitConfigurationException(
                            p + "serializer",
                            bean.name(),
                            "serializer '" + bean.name() + "' is a KafkaRecordSerializationSchema, which chooses topic"
                                    + " and key itself",
                            "Remove " + p + "key, " + p + "key-serializer and " + p + "topic-selector.");
                }
                return sink(name, p, sink, (KafkaRecordSerializationSchema<T>) full);
            }
            value = typed((SerializationSchema<T>) bean.bean(), type);
        }
        KafkaRecordSerializationSchemaBuilder<T> builder =
                KafkaRecordSerializationSchema.builder().setValueSerializationSchema(value);
        topics.apply(builder, sink, p);
        if (sink.getKey() != null && sink.getKeySerializer() != null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "key",
                    sink.getKey(),
                    "both key '" + sink.getKey() + "' and key-serializer '" + sink.getKeySerializer() + "' are set",
                    "Keep " + p + "key to write that field as the key, or " + p + "key-serializer for a bean's bytes.");
        }
        if (sink.getKey() != null && elementType != null) {
            builder.setKeySerializationSchema(formats.keyField(p, sink.getKey(), elementType.getTypeClass()));
        } else if (sink.getKeySerializer() != null) {
            UserBeans.Found key = beans.find(
                    p + "key-serializer", sink.getKeySerializer(), "key serializer", SerializationSchema.class);
            beans.requireShippable(p + "key-serializer", key);
            builder.setKeySerializationSchema(typed((SerializationSchema<T>) key.bean(), type));
        }
        return sink(name, p, sink, SinkTopics.build(builder, p));
    }

    /** The value writer of {@code format:}; before the stream is known, one that only stands in for it. */
    @SuppressWarnings("unchecked")
    private <T> SerializationSchema<T> formatted(
            KafkaSinkProperties sink, String p, @Nullable TypeInformation<T> elementType) {
        ValueFormat format = Objects.requireNonNull(sink.getFormat(), "formatted() is for a sink with a format");
        if (sink.getSerializer() != null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "format",
                    format.yaml(),
                    "both format '" + format.yaml() + "' and serializer '" + sink.getSerializer()
                            + "' are set; a sink writes with one of them",
                    "Remove " + p + "serializer to write with format " + format.yaml() + ", or remove " + p
                            + "format to write with the bean.");
        }
        SerializationSchema<?> writer = formats.writer(
                p,
                format,
                elementType == null ? null : elementType.getTypeClass(),
                sink.getSchema(),
                sink.getCharset(),
                sink.getTopic());
        // the startup check builds each sink once to check it; the sink it builds is never used
        return (SerializationSchema<T>) (writer == null ? BytesFormat.INSTANCE : writer);
    }

    /**
     * This application context's id among the applications of this JVM: its sinks' freshness
     * listeners and its record tracer are registered under it, and its readers find the tracer by it
     * (Flink configuration {@link RecordTracer#APPLICATION_ID}).
     */
    public String applicationId() {
        return applicationId;
    }

    private <T> Sink<T> sink(
            String name, String p, KafkaSinkProperties sink, KafkaRecordSerializationSchema<T> serializer) {
        Properties producer = producerProperties(sink.getProperties());
        KafkaRecordSerializationSchema<T> observed = new ObservedSerializationSchema<>(serializer, applicationId, name);
        Sink<T> built = build(
                name,
                p,
                sink.getBootstrapServers(),
                sink.getDeliveryGuarantee(),
                transactionalIds.ofSink(name, sink),
                producer,
                sink.getOversizeRecordPolicy() == KafkaSinkProperties.OversizeRecordPolicy.SKIP
                        ? new OversizeRecordGuard<>(observed, name, producer)
                        : observed);
        verifyAccess(
                "sink '" + name + "'",
                p,
                sink.getBootstrapServers(),
                sink.getProperties(),
                p + "topic",
                sink.getTopic());
        return built;
    }

    private static <T> SerializationSchema<T> typed(SerializationSchema<T> schema, TypeInformation<T> type) {
        return schema instanceof ResultTypeQueryable<?> ? schema : new TypedSerializationSchema<>(schema, type);
    }

    /** The sink for the dead letters of source {@code sourceName}, with the raw record plus error headers. */
    @Override
    public Sink<DeadLetterRecord> deadLetters(String sourceName) {
        KafkaSourceProperties source = kafka.getSources().get(sourceName);
        String p = KafkaSources.prefix(sourceName);
        if (source == null || source.getDeadLetterTopic() == null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "dead-letter-topic",
                    null,
                    "source '" + sourceName
                            + "' sends bad records to its dead-letter stream, but no dead-letter topic is configured",
                    "Set " + p + "dead-letter-topic (e.g. " + sourceName + ".DLT) and bad-record-policy: dead-letter.");
        }
        String topic = source.getDeadLetterTopic();
        KafkaRecordSerializationSchema<DeadLetterRecord> serializer = new DeadLetterSerializationSchema(topic);
        DeliveryGuarantee guarantee = deadLetterGuarantee();
        Sink<DeadLetterRecord> built = build(
                sourceName + ".dead-letters",
                p + "dead-letter-topic",
                source.getBootstrapServers(),
                guarantee,
                guarantee == DeliveryGuarantee.EXACTLY_ONCE ? transactionalIds.ofDeadLetters(sourceName) : null,
                producerProperties(source.getProperties()),
                serializer);
        verifyAccess(
                "the dead letters of source '" + sourceName + "'",
                p,
                source.getBootstrapServers(),
                source.getProperties(),
                p + "dead-letter-topic",
                topic);
        return built;
    }

    @Override
    public Sink<DeadLetterRecord> stepDeadLetters(String step, String topic) {
        String p = "streamsplit.processing-errors.steps." + step + ".";
        DeliveryGuarantee guarantee = deadLetterGuarantee();
        List<String> servers = List.of(); // the application's Kafka: streamsplit.kafka.bootstrap-servers
        Sink<DeadLetterRecord> built = build(
                "step " + step + ".dead-letters",
                p,
                servers,
                guarantee,
                guarantee == DeliveryGuarantee.EXACTLY_ONCE ? transactionalIds.ofStepDeadLetters(step) : null,
                producerProperties(Map.of()),
                new DeadLetterSerializationSchema(topic));
        verifyAccess("the dead letters of step '" + step + "'", p, servers, Map.of(), p + "dead-letter-topic", topic);
        return built;
    }

    /** The guarantee dead letters are written with: the strongest of the configured sinks; at-least-once without. */
    public DeliveryGuarantee deadLetterGuarantee() {
        return transactionalIds.deadLetterGuarantee();
    }

    private Properties producerProperties(Map<String, String> own) {
        Properties producer = new Properties();
        producer.putAll(clientProperties.common(KafkaClients.Kind.PRODUCER));
        producer.putAll(own);
        return producer;
    }

    /**
     * Flink's official {@link KafkaSink}; exactly-once, with a committer that first asks Kafka whether a
     * transaction restored from a checkpoint was already committed ({@link RestoredTransactionsKafkaSink}).
     */
    private <T> Sink<T> build(
            String name,
            String p,
            List<String> servers,
            DeliveryGuarantee guarantee,
            @Nullable String transactionalIdPrefix,
            Properties producer,
            KafkaRecordSerializationSchema<T> serializer) {
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            KafkaSinkProperties.checkExactlyOnce(p, producer, flink);
        }
        String resolved = bootstrapServers.resolve(p + "bootstrap-servers", servers);
        var builder = KafkaSink.<T>builder()
                .setBootstrapServers(resolved)
                .setDeliveryGuarantee(guarantee)
                .setKafkaProducerConfig(producer)
                .setRecordSerializer(serializer);
        if (transactionalIdPrefix != null) {
            builder.setTransactionalIdPrefix(transactionalIdPrefix);
        }
        customizers.forEach(customizer -> customizer.customize(name, builder));
        KafkaSink<T> official = builder.build();
        if (guarantee != DeliveryGuarantee.EXACTLY_ONCE) {
            return official;
        }
        return RestoredTransactionsKafkaSink.of(official, producer, resolved);
    }

    /** A secured writer's credentials and WRITE on its topic, checked at startup (see {@link KafkaAccessCheck}). */
    private void verifyAccess(
            String what,
            String p,
            List<String> servers,
            Map<String, String> own,
            String topicProperty,
            @Nullable String topic) {
        if (!kafka.isVerifyAccess()) {
            return;
        }
        Properties client = clientProperties.forClient(
                KafkaClients.Kind.PRODUCER, bootstrapServers.resolve(p + "bootstrap-servers", servers), own);
        if (KafkaAccessCheck.secured(client)) {
            KafkaAccessCheck.checkWriter(
                    what,
                    client,
                    topicProperty,
                    topic,
                    own.containsKey("sasl.jaas.config")
                            ? p + "properties.sasl.jaas.config"
                            : clientProperties.origin("sasl.jaas.config"));
        }
    }
}
