package io.streamsplit.connector.kafka.table;

import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory;
import org.apache.flink.table.connector.source.DynamicTableSource;

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
}
