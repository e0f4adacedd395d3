package io.streamsplit.connector.kafka.table;

import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.streaming.connectors.kafka.table.UpsertKafkaDynamicTableFactory;
import org.apache.flink.table.connector.source.DynamicTableSource;

/**
 * {@code 'connector' = 'streamsplit-upsert-kafka'}: Flink's {@code 'upsert-kafka'} table connector with the
 * StreamSplit source under it. A compacted topic read as a changelog: each record an upsert of its key's
 * row, a tombstone (a record without value) its delete; the table needs a {@code PRIMARY KEY}, the key and
 * value formats. The official factory parses and validates every option, so switching is one word; written
 * to, the table is the official upsert sink. {@link StreamSplitTableOptions} apply as for
 * {@code 'streamsplit-kafka'}.
 *
 * <pre>{@code
 * CREATE TABLE balances (
 *   account STRING,
 *   cents BIGINT,
 *   PRIMARY KEY (account) NOT ENFORCED
 * ) WITH (
 *   'connector' = 'streamsplit-upsert-kafka',
 *   'topic' = 'balances',
 *   'properties.bootstrap.servers' = 'localhost:9092',
 *   'key.format' = 'raw',
 *   'value.format' = 'json'
 * )
 * }</pre>
 */
@PublicEvolving
public class StreamSplitUpsertKafkaTableFactory extends UpsertKafkaDynamicTableFactory {

    /** The connector's name in {@code WITH ('connector' = ...)}. */
    public static final String IDENTIFIER = "streamsplit-upsert-kafka";

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
