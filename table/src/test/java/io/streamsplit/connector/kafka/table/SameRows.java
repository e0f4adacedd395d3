package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The differential check of the table ITs: one query over a table of each connector, the {@code WITH} clause
 * otherwise equal, must give the same rows.
 */
final class SameRows {

    private static final AtomicInteger TABLES = new AtomicInteger();

    private final TableEnvironment sql;
    private final String bootstrapServers;

    SameRows(TableEnvironment sql, String bootstrapServers) {
        this.sql = sql;
        this.bootstrapServers = bootstrapServers;
    }

    /** A name no table or topic of this JVM has yet, starting with {@code prefix}. */
    static String unique(String prefix) {
        return prefix + TABLES.incrementAndGet();
    }

    /** Runs {@code query} ({@code %s}: the table) over a table of each connector; asserts equal rows, returns them. */
    List<String> of(String topic, String columns, String options, String query) {
        List<String> official = rows("kafka", topic, columns, options, query);
        List<String> ours = rows(StreamSplitKafkaTableFactory.IDENTIFIER, topic, columns, options, query);
        assertThat(ours).as("rows of 'streamsplit-kafka' vs 'kafka'").containsExactlyInAnyOrderElementsOf(official);
        return ours;
    }

    /** Three clicks (user, page, n; one page null) into {@code topic} through the official connector's table. */
    void writeThreeClicks(String topic, String options) throws Exception {
        String table = unique("w");
        sql.executeSql("CREATE TABLE " + table + " (`user` STRING, page STRING, n INT) WITH ('connector' = 'kafka',"
                + " 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '" + bootstrapServers + "', "
                + options + ")");
        sql.executeSql("INSERT INTO " + table + " SELECT * FROM (VALUES ('user-0', '/a', 1), ('user-1', '/b', 2),"
                        + " ('user-0', CAST(NULL AS STRING), 3)) AS v(`user`, page, n)")
                .await();
    }

    private List<String> rows(String connector, String topic, String columns, String options, String query) {
        String table = unique("t");
        sql.executeSql("CREATE TABLE " + table + " (" + columns + ") WITH ('connector' = '" + connector + "',"
                + " 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '" + bootstrapServers + "', "
                + options + ")");
        return Topics.rowsReadBy(
                sql,
                connector.equals("kafka") ? "Source: KafkaSource-" : "Source: StreamSplitKafkaSource-",
                String.format(query, table));
    }
}
