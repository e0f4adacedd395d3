package io.streamsplit.connector.kafka.table;

import io.streamsplit.connector.kafka.source.KafkaSourceStream;
import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSourceBuilder;
import io.streamsplit.connector.kafka.source.option.SourceOption;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.connectors.kafka.config.BoundedMode;
import org.apache.flink.streaming.connectors.kafka.config.StartupMode;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.streaming.connectors.kafka.table.TableDataTypeUtils;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.Projection;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * The table's source: planned as Flink's {@code KafkaDynamicSource} plans it (projections, metadata
 * columns, watermark push-down, the key and value formats), read by {@link StreamSplitKafkaSource}.
 */
@Internal
final class StreamSplitKafkaTableSource extends KafkaDynamicSource {

    /**
     * The transformation the operator uid is generated from: the official source's, so that a SQL job
     * switched from {@code 'kafka'} keeps its source's state (StreamSplit restores the official state).
     */
    private static final String TRANSFORMATION = "kafka";

    private StreamSplitTableOptions.Reading reading = StreamSplitTableOptions.Reading.DEFAULT;

    StreamSplitKafkaTableSource(
            DataType physicalDataType,
            @Nullable DecodingFormat<DeserializationSchema<RowData>> keyDecodingFormat,
            DecodingFormat<DeserializationSchema<RowData>> valueDecodingFormat,
            int[] keyProjection,
            int[] valueProjection,
            @Nullable String keyPrefix,
            @Nullable List<String> topics,
            @Nullable Pattern topicPattern,
            Properties properties,
            StartupMode startupMode,
            Map<TopicPartition, Long> specificStartupOffsets,
            long startupTimestampMillis,
            BoundedMode boundedMode,
            Map<TopicPartition, Long> specificBoundedOffsets,
            long boundedTimestampMillis,
            boolean upsertMode,
            String tableIdentifier,
            @Nullable Integer parallelism) {
        super(
                physicalDataType,
                keyDecodingFormat,
                valueDecodingFormat,
                keyProjection,
                valueProjection,
                keyPrefix,
                topics,
                topicPattern,
                properties,
                startupMode,
                specificStartupOffsets,
                startupTimestampMillis,
                boundedMode,
                specificBoundedOffsets,
                boundedTimestampMillis,
                upsertMode,
                tableIdentifier,
                parallelism);
    }

    /**
     * The official source {@code official} as planned (both factories let the official one plan it, and the
     * upsert factory has no method to override), or a copy of one of ours, read by StreamSplit. Its fields are protected, so they are read by reflection.
     */
    @SuppressWarnings("unchecked")
    static StreamSplitKafkaTableSource of(KafkaDynamicSource official) {
        return new StreamSplitKafkaTableSource(
                field(official, "physicalDataType"),
                field(official, "keyDecodingFormat"),
                field(official, "valueDecodingFormat"),
                field(official, "keyProjection"),
                field(official, "valueProjection"),
                field(official, "keyPrefix"),
                field(official, "topics"),
                field(official, "topicPattern"),
                field(official, "properties"),
                field(official, "startupMode"),
                field(official, "specificStartupOffsets"),
                (Long) field(official, "startupTimestampMillis"),
                field(official, "boundedMode"),
                field(official, "specificBoundedOffsets"),
                (Long) field(official, "boundedTimestampMillis"),
                (Boolean) field(official, "upsertMode"),
                field(official, "tableIdentifier"),
                field(official, "parallelism"));
    }

    @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"})
    private static <T> T field(KafkaDynamicSource official, String name) {
        try {
            Field field = KafkaDynamicSource.class.getDeclaredField(name);
            field.setAccessible(true);
            return (T) field.get(official);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "This flink-connector-kafka version plans its table source differently than the one"
                            + " streamsplit-table was built against (no field '" + name + "'); use the"
                            + " flink-connector-kafka version of the StreamSplit release",
                    e);
        }
    }

    /** This source with the StreamSplit-only reading options of its table. */
    StreamSplitKafkaTableSource reading(StreamSplitTableOptions.Reading reading) {
        this.reading = reading;
        return this;
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        TypeInformation<RowData> type = context.createTypeInformation(producedDataType);
        // the official source turns records into rows (key, value, metadata columns); we read them
        KafkaRecordDeserializationSchema<RowData> rows = rowsOf(createKafkaSource(
                decoder(context, keyDecodingFormat, keyProjection, keyPrefix),
                decoder(context, valueDecodingFormat, valueProjection, null),
                type));
        StreamSplitKafkaSource<RowData> source = source(rows, type);
        WatermarkStrategy<RowData> watermarks =
                watermarkStrategy != null ? watermarkStrategy : WatermarkStrategy.noWatermarks();
        String name = "StreamSplitKafkaSource-" + tableIdentifier;
        Integer sourceParallelism = parallelism;
        String deadLetterTopic = reading.deadLetterTopic();
        Properties connection = properties;
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext providerContext, StreamExecutionEnvironment env) {
                String uid = providerContext.generateUid(TRANSFORMATION).orElse(null);
                SingleOutputStreamOperator<RowData> stream;
                if (deadLetterTopic != null) {
                    // the planner keeps only the query's rows: no second sink, so the source writes them
                    stream = KafkaSourceStream.writingDeadLetters(
                            env, source, watermarks, name, uid, deadLetterTopic, connection);
                } else {
                    stream = env.fromSource(source, watermarks, name);
                    if (uid != null) {
                        stream.uid(uid);
                    }
                }
                if (sourceParallelism != null) {
                    // the source and the dead-letter writer chained to it run at the table's parallelism
                    for (Transformation<?> t = stream.getTransformation();
                            ;
                            t = t.getInputs().get(0)) {
                        t.setParallelism(sourceParallelism);
                        if (t.getInputs().isEmpty()) {
                            break;
                        }
                    }
                }
                return stream;
            }

            @Override
            public boolean isBounded() {
                return source.getBoundedness() == Boundedness.BOUNDED;
            }

            @Override
            public Optional<Integer> getParallelism() {
                return Optional.ofNullable(sourceParallelism);
            }
        };
    }

    /** The StreamSplit source of this table's options, emitting {@code rows}. */
    private StreamSplitKafkaSource<RowData> source(
            KafkaRecordDeserializationSchema<RowData> rows, TypeInformation<RowData> type) {
        StreamSplitKafkaSourceBuilder<RowData> builder =
                StreamSplitKafkaSource.<RowData>builder().setName(tableIdentifier);
        if (topics != null && !topics.isEmpty()) {
            builder.setTopics(topics);
        } else {
            builder.setTopicPattern(Objects.requireNonNull(topicPattern, "topic or topic-pattern"));
        }
        // options the official factory hands its source as properties; ours takes them as settings
        Properties client = new Properties();
        client.putAll(properties);
        Object discoveryMillis = client.remove("partition.discovery.interval.ms");
        long discovery = discoveryMillis == null ? 0 : Long.parseLong(discoveryMillis.toString());
        Object clientIdPrefix = client.remove("client.id.prefix");
        Object commit = client.remove("commit.offsets.on.checkpoint");
        client.remove("register.consumer.metrics");
        builder.setProperties(client);
        builder.setStartingOffsets(startingOffsets());
        StoppingOffsets stopping = stoppingOffsets();
        if (stopping != null) {
            builder.setBounded(stopping); // a bounded source reads the partitions found at start
        } else if (discovery > 0) {
            builder.setPartitionDiscoveryInterval(Duration.ofMillis(discovery));
        }
        if (clientIdPrefix != null) {
            builder.setClientIdPrefix(clientIdPrefix.toString());
        }
        if (commit != null) {
            builder.setCommitOffsetsOnCheckpoint(Boolean.parseBoolean(commit.toString()));
        }
        builder.setBadRecordPolicy(reading.badRecordPolicy());
        if (reading.controlTopic() != null) {
            builder.setControlTopic(reading.controlTopic());
        }
        for (SourceOption<?> option : StreamSplitTableOptions.tableOnly()) {
            set(builder, option, reading.sourceOptions().get(option.key()));
        }
        return builder.setRecordEmitter(new RowRecordEmitter(rows), type).build();
    }

    private StartingOffsets startingOffsets() {
        return switch (startupMode) {
            case EARLIEST -> StartingOffsets.earliest();
            case LATEST -> StartingOffsets.latest();
            // as the official source: a partition without a commit follows auto.offset.reset, else fails
            case GROUP_OFFSETS ->
                StartingOffsets.committed(
                        OffsetResetStrategy.parse(properties.getProperty("auto.offset.reset", "none")));
            case TIMESTAMP -> StartingOffsets.timestamp(startupTimestampMillis);
            case SPECIFIC_OFFSETS -> StartingOffsets.specific(specificStartupOffsets, StartingOffsets.earliest());
        };
    }

    private @Nullable StoppingOffsets stoppingOffsets() {
        return switch (boundedMode) {
            case UNBOUNDED -> null;
            case LATEST -> StoppingOffsets.latest();
            case TIMESTAMP -> StoppingOffsets.timestamp(boundedTimestampMillis);
            case SPECIFIC_OFFSETS -> StoppingOffsets.specific(specificBoundedOffsets);
            case GROUP_OFFSETS ->
                throw new ValidationException("Table " + tableIdentifier + ": 'scan.bounded.mode' = 'group-offsets'"
                        + " is not supported by 'streamsplit-kafka' yet. Use 'latest-offset', 'timestamp' or"
                        + " 'specific-offsets', or 'connector' = 'kafka' for this table.");
        };
    }

    /** The format's runtime decoder for the fields it reads, as the official source derives it. */
    private @Nullable DeserializationSchema<RowData> decoder(
            Context context,
            @Nullable DecodingFormat<DeserializationSchema<RowData>> format,
            int[] projection,
            @Nullable String prefix) {
        if (format == null) {
            return null;
        }
        DataType fields = Projection.of(projection).project(physicalDataType);
        if (prefix != null) {
            fields = TableDataTypeUtils.stripRowPrefix(fields, prefix);
        }
        return format.createRuntimeDecoder(context, fields);
    }

    /** The record-to-row schema of the official source: it has no accessor, so it is read from its field. */
    @SuppressWarnings("unchecked")
    private static KafkaRecordDeserializationSchema<RowData> rowsOf(KafkaSource<RowData> official) {
        try {
            Field field = KafkaSource.class.getDeclaredField("deserializationSchema");
            field.setAccessible(true);
            return (KafkaRecordDeserializationSchema<RowData>) field.get(official);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "This flink-connector-kafka version builds its table source differently than the one"
                            + " streamsplit-table was built against; use the flink-connector-kafka version of the"
                            + " StreamSplit release",
                    e);
        }
    }

    @Override
    public DynamicTableSource copy() {
        // the official fields as they are now, read as the factories' planned sources are (one pass-through)
        StreamSplitKafkaTableSource copy = of(this);
        copy.producedDataType = producedDataType;
        copy.metadataKeys = metadataKeys;
        copy.watermarkStrategy = watermarkStrategy;
        copy.reading = reading;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "StreamSplit Kafka table source";
    }

    private static <V> void set(
            StreamSplitKafkaSourceBuilder<RowData> builder, SourceOption<V> option, @Nullable Object value) {
        if (value != null) {
            builder.set(option, option.type().cast(value));
        }
    }
}
