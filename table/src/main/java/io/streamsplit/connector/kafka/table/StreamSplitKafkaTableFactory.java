package io.streamsplit.connector.kafka.table;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.connectors.kafka.config.BoundedMode;
import org.apache.flink.streaming.connectors.kafka.config.StartupMode;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * {@code 'connector' = 'streamsplit-kafka'}: Flink's {@code 'kafka'} table connector with the StreamSplit
 * source under it. Switching a table is one word; every option keeps its name and meaning because the
 * official factory parses and validates them, picks the key and value formats and serves the metadata
 * columns. Written to, the table is the official {@code KafkaDynamicSink}. What only StreamSplit has — a
 * bad-record policy that can skip, a rate limit — are {@link StreamSplitTableOptions}.
 *
 * <pre>{@code
 * CREATE TABLE orders (
 *   id STRING,
 *   amount DOUBLE,
 *   `partition` INT METADATA VIRTUAL,
 *   ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
 * ) WITH (
 *   'connector' = 'streamsplit-kafka',
 *   'topic' = 'orders',
 *   'properties.bootstrap.servers' = 'localhost:9092',
 *   'scan.startup.mode' = 'earliest-offset',
 *   'value.format' = 'json'
 * )
 * }</pre>
 */
@PublicEvolving
public class StreamSplitKafkaTableFactory extends KafkaDynamicTableFactory {

    /** The connector's name in {@code WITH ('connector' = ...)}. */
    public static final String IDENTIFIER = "streamsplit-kafka";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    /** The official connector's options, and {@link StreamSplitTableOptions}'. */
    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return StreamSplitTableOptions.withOfficial(super.optionalOptions());
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        return StreamSplitTableOptions.streamSplit(
                (KafkaDynamicSource) super.createDynamicTableSource(context), context);
    }

    @Override
    protected KafkaDynamicSource createKafkaTableSource(
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
            Map<TopicPartition, Long> specificEndOffsets,
            long endTimestampMillis,
            String tableIdentifier,
            @Nullable Integer parallelism) {
        return new StreamSplitKafkaTableSource(
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
                specificEndOffsets,
                endTimestampMillis,
                false,
                tableIdentifier,
                parallelism);
    }
}
