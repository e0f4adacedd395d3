package io.streamsplit.connector.kafka.source;

import io.streamsplit.connector.kafka.lineage.KafkaLineage;
import io.streamsplit.connector.kafka.source.control.ControlTopicReader;
import io.streamsplit.connector.kafka.source.control.SourceControlRelay;
import io.streamsplit.connector.kafka.source.enumerator.AdminKafkaMetadata;
import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorState;
import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorStateSerializer;
import io.streamsplit.connector.kafka.source.enumerator.KafkaMetadata;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSourceEnumerator;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSubscription;
import io.streamsplit.connector.kafka.source.reader.ElementMapping;
import io.streamsplit.connector.kafka.source.reader.KafkaSourceReader;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.apache.flink.types.Either;
import org.apache.flink.util.InstantiationUtil;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.flink.util.function.SerializableSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.jspecify.annotations.Nullable;

/**
 * StreamSplit's split-based (FLIP-27) Kafka source: one split per partition, an enumerator in the
 * JobManager that discovers partitions and assigns them deterministically, and readers built on
 * {@code flink-connector-base} with one consumer per subtask. Offsets live in Flink checkpoints
 * and are committed to the consumer group when a checkpoint completes.
 *
 * <pre>{@code
 * StreamSplitKafkaSource<String> source = StreamSplitKafkaSource.<String>builder()
 *         .setBootstrapServers("localhost:9092")
 *         .setTopics("orders")
 *         .setGroupId("order-totals")
 *         .setStartingOffsets(StartingOffsets.committed(OffsetResetStrategy.EARLIEST))
 *         .setValueOnlyDeserializer(new SimpleStringSchema())
 *         .build();
 * DataStream<String> orders = env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders");
 * }</pre>
 *
 * <p>With {@link BadRecordPolicy#DEAD_LETTER}, add the source with {@link KafkaSourceStream#of}
 * so the dead letters get a stream of their own.
 *
 * @param <OUT> the type of the elements the source emits
 */
@PublicEvolving
public final class StreamSplitKafkaSource<OUT>
        implements Source<OUT, KafkaPartitionSplit, KafkaEnumeratorState>,
                ResultTypeQueryable<OUT>,
                LineageVertexProvider {

    private static final long serialVersionUID = 1L;

    private final Config<?> config;
    private final ElementMapping<?, OUT> mapping;
    private final TypeInformation<OUT> producedType;
    private final @Nullable String deadLetterTopic;

    /** Everything the builder collected; shared between the plain and the dead-letter variant. */
    record Config<T>(
            String name,
            KafkaSubscription subscription,
            StartingOffsets startingOffsets,
            @Nullable StoppingOffsets stoppingOffsets,
            long discoveryIntervalMillis,
            String groupId,
            boolean commitOffsets,
            BadRecordPolicy badRecordPolicy,
            double maxRecordsPerSecond,
            @Nullable String controlTopic,
            KafkaRecordEmitter<T> emitter,
            Properties consumerProperties,
            @Nullable SerializableSupplier<String> rackId,
            SerializableSupplier<KafkaMetadata> metadataFactory)
            implements Serializable {}

    StreamSplitKafkaSource(Config<?> config, ElementMapping<?, OUT> mapping, TypeInformation<OUT> producedType) {
        this(config, mapping, producedType, null);
    }

    private StreamSplitKafkaSource(
            Config<?> config,
            ElementMapping<?, OUT> mapping,
            TypeInformation<OUT> producedType,
            @Nullable String deadLetterTopic) {
        this.config = config;
        this.mapping = mapping;
        this.producedType = producedType;
        this.deadLetterTopic = deadLetterTopic;
    }

    /** The source's rate limit in records per second (all readers together), or 0: unlimited. */
    public double maxRecordsPerSecond() {
        return config.maxRecordsPerSecond();
    }

    /** The topic the running source takes pause, resume and rate commands from, or {@code null}: none. */
    public @Nullable String controlTopic() {
        return config.controlTopic();
    }

    /** Starts building a source. */
    public static <T> StreamSplitKafkaSourceBuilder<T> builder() {
        return new StreamSplitKafkaSourceBuilder<>();
    }

    /**
     * The same source, emitting {@code Either.Left(deadLetter)} for bad records and
     * {@code Either.Right(element)} otherwise. Used by {@link KafkaSourceStream}; needs the
     * {@link BadRecordPolicy#DEAD_LETTER} policy.
     */
    StreamSplitKafkaSource<Either<DeadLetterRecord, OUT>> withDeadLetterOutput() {
        return withDeadLetterOutput(null);
    }

    /** {@link #withDeadLetterOutput()}, whose dead letters the job writes to {@code writtenTo} itself. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    StreamSplitKafkaSource<Either<DeadLetterRecord, OUT>> withDeadLetterOutput(@Nullable String writtenTo) {
        if (config.badRecordPolicy() != BadRecordPolicy.DEAD_LETTER) {
            throw new IllegalStateException("Source " + config.name() + " uses bad-record policy "
                    + config.badRecordPolicy() + "; only the dead-letter policy has a dead-letter output");
        }
        TypeInformation<Either<DeadLetterRecord, OUT>> type =
                new EitherTypeInfo<>(TypeInformation.of(DeadLetterRecord.class), producedType);
        return new StreamSplitKafkaSource<>(config, (ElementMapping) ElementMapping.withDeadLetters(), type, writtenTo);
    }

    /**
     * The topic this source's dead letters are written to in the job, when it was added with
     * {@link KafkaSourceStream#writingDeadLetters} (as a {@code 'streamsplit-kafka'} table with
     * {@code 'scan.dead-letter-topic'} is); otherwise {@code null}: where a dead-letter stream goes is the
     * job's business.
     */
    public @Nullable String deadLetterTopic() {
        return deadLetterTopic;
    }

    /** The name used in logs and metrics, e.g. {@code orders}. */
    public String name() {
        return config.name();
    }

    public BadRecordPolicy badRecordPolicy() {
        return config.badRecordPolicy();
    }

    /**
     * This source's emitter (deserializer), opened outside any job, as a check: for a raw record,
     * the error that would make it a bad record, or {@code null} if it would now be read fine. The
     * elements go nowhere. The dead-letter replay asks it before it sends dead letters back to a
     * topic this source reads, where they would fail again.
     *
     * <pre>{@code
     * Function<ConsumerRecord<byte[], byte[]>, Throwable> check = source.badRecordCheck();
     * Throwable error = check.apply(deadLetter); // null: the fixed deserializer reads it
     * }</pre>
     */
    public Function<ConsumerRecord<byte[], byte[]>, @Nullable Throwable> badRecordCheck() throws Exception {
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        KafkaRecordEmitter<?> emitter = InstantiationUtil.clone(config.emitter(), classLoader);
        emitter.open(new DeserializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return UnregisteredMetricsGroup.createOperatorMetricGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(classLoader);
            }
        });
        KafkaRecordCollector<Object> discard = new KafkaRecordCollector<>() {
            @Override
            public void collect(Object element) {}

            @Override
            public void collect(Object element, long timestampMillis) {}
        };
        @SuppressWarnings("unchecked")
        KafkaRecordEmitter<Object> opened = (KafkaRecordEmitter<Object>) emitter;
        return record -> {
            try {
                opened.emit(record, discard);
                return null;
            } catch (Exception | LinkageError e) {
                return e;
            }
        };
    }

    /** The consumer settings each reader uses (a copy; secrets included, so do not log it). */
    public Properties consumerProperties() {
        Properties copy = new Properties();
        copy.putAll(config.consumerProperties());
        return copy;
    }

    /** Where new jobs start reading. */
    public StartingOffsets startingOffsets() {
        return config.startingOffsets();
    }

    /** Where a bounded source stops, or {@code null} for an unbounded source. */
    public @Nullable StoppingOffsets stoppingOffsets() {
        return config.stoppingOffsets();
    }

    /** Which partitions the source reads, for people: {@code topics [orders, returns]}, {@code topic pattern 'orders-.*'}. */
    public String subscription() {
        return config.subscription().toString();
    }

    /** The topics the source names (sorted; for a partition subscription, their topics); empty for a pattern. */
    public List<String> topics() {
        return config.subscription().topics();
    }

    /** The topic pattern the source matches on every discovery, or {@code null} when it names topics. */
    public @Nullable String topicPattern() {
        Pattern pattern = config.subscription().pattern();
        return pattern == null ? null : pattern.pattern();
    }

    /** How often the enumerator looks for new and deleted partitions; zero means once at start. */
    public Duration discoveryInterval() {
        return Duration.ofMillis(config.discoveryIntervalMillis());
    }

    /**
     * What the source reads, for Flink's lineage interface (and OpenLineage through it): its topics or pattern on its
     * Kafka cluster, with the element type, in the official Kafka connector's facets.
     */
    @Override
    public LineageVertex getLineageVertex() {
        // a source writing dead letters emits Either<DeadLetterRecord, element>: the records' type is the element's
        TypeInformation<?> type = getProducedType();
        if (type instanceof EitherTypeInfo<?, ?> either) {
            type = either.getRightType();
        }
        return KafkaLineage.source(
                KafkaLineage.dataset(
                        consumerProperties().getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG),
                        topics(),
                        topicPattern(),
                        type),
                getBoundedness());
    }

    @Override
    public Boundedness getBoundedness() {
        return config.stoppingOffsets() == null ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaEnumeratorState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) {
        return restoreEnumerator(context, KafkaEnumeratorState.empty());
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaEnumeratorState checkpoint) {
        KafkaSourceEnumerator.Settings settings = new KafkaSourceEnumerator.Settings(
                config.name(),
                config.subscription(),
                config.startingOffsets(),
                config.stoppingOffsets(),
                config.groupId(),
                config.discoveryIntervalMillis());
        String controlTopic = config.controlTopic();
        SourceControlRelay control = controlTopic == null
                ? null
                : new SourceControlRelay(config.name(), controlTopic, () -> controlReader(controlTopic), context);
        return new KafkaSourceEnumerator(settings, context, config.metadataFactory(), checkpoint, control);
    }

    private ControlTopicReader controlReader(String topic) {
        Properties consumer = config.consumerProperties();
        String clientId = consumer.getProperty(ConsumerConfig.CLIENT_ID_CONFIG, config.name());
        return new ControlTopicReader(
                topic,
                config.name(),
                ControlTopicReader.consumerProperties(consumer, clientId),
                ControlTopicReader.DEFAULT_TIMEOUT);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public SourceReader<OUT, KafkaPartitionSplit> createReader(SourceReaderContext readerContext) {
        KafkaSourceReader.Settings settings = new KafkaSourceReader.Settings(
                config.name(),
                config.consumerProperties(),
                config.commitOffsets(),
                config.badRecordPolicy(),
                config.maxRecordsPerSecond(),
                config.controlTopic() != null,
                config.rackId());
        return KafkaSourceReader.create(
                settings,
                (KafkaRecordEmitter) config.emitter(),
                (ElementMapping) mapping,
                readerContext,
                config.metadataFactory());
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return new KafkaPartitionSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaEnumeratorState> getEnumeratorCheckpointSerializer() {
        return new KafkaEnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<OUT> getProducedType() {
        return producedType;
    }

    /** The metadata client the enumerator uses against a real cluster. */
    static SerializableSupplier<KafkaMetadata> adminMetadata(
            Properties adminProperties, IsolationLevel isolationLevel, long timeoutMillis) {
        return () -> new AdminKafkaMetadata(adminProperties, isolationLevel, Duration.ofMillis(timeoutMillis));
    }

    @Override
    public String toString() {
        return "StreamSplitKafkaSource{" + config.name() + ", " + config.subscription() + ", " + getBoundedness() + '}';
    }
}
