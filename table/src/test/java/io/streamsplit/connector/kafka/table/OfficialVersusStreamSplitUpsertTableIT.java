package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential test of {@code 'streamsplit-upsert-kafka'}: a compacted-style topic of balances
 * (updates of a key, tombstones deleting it) read once with Flink's {@code 'upsert-kafka'} and once with
 * ours, the rest of the {@code WITH} clause equal, gives the same changelog and the same aggregate.
 */
class OfficialVersusStreamSplitUpsertTableIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final String TOPIC = "balances";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private TableEnvironment sql;

    @BeforeAll
    static void writeBalances() throws Exception {
        KAFKA.broker().createTopic(TOPIC, 2, Map.of());
        Properties producer = new Properties();
        producer.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (KafkaProducer<String, String> kafka =
                new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 30; i++) {
                String account = "acct-" + (i % 5);
                // every seventh record deletes its account (a tombstone); the next update brings it back
                String value = i % 7 == 6 ? null : "{\"account\":\"" + account + "\",\"cents\":" + (i * 10) + "}";
                kafka.send(new ProducerRecord<>(TOPIC, account, value)).get();
            }
        }
    }

    /** In the test's thread: the planner keeps per-thread state. */
    @BeforeEach
    void tableEnvironment() {
        sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sql.getConfig().set("parallelism.default", "2");
    }

    @Test
    void theSameChangelogOfUpdatesAndDeletes() {
        List<String> rows = sameRows("SELECT account, cents FROM %s");
        assertThat(rows).anyMatch(r -> r.startsWith("-D[")).anyMatch(r -> r.startsWith("-U["));
    }

    @Test
    void theSameAggregateOverTheLatestRowOfEachKey() {
        // the aggregate's intermediate updates depend on how the two partitions interleave; its end does not
        List<String> official = materialized(rows("upsert-kafka", AGGREGATE));
        List<String> ours = materialized(rows(StreamSplitUpsertKafkaTableFactory.IDENTIFIER, AGGREGATE));
        assertThat(ours).isEqualTo(official).hasSize(1);
        // records 25..29 write each account last; record 27 is a tombstone: acct-2 is gone
        assertThat(ours).containsExactly("[4, " + (250 + 260 + 280 + 290) + "]");
    }

    @Test
    void theSampleOfTheDocsRuns() throws Exception {
        String docs = Files.readString(Path.of("../docs/sql.md"));
        Matcher block = Pattern.compile("```sql\n(CREATE TABLE balances.*?)```", Pattern.DOTALL)
                .matcher(docs);
        assertThat(block.find()).as("docs/sql.md has the upsert sample").isTrue();
        sql.executeSql(block.group(1)
                .replace("localhost:9092", KAFKA.bootstrapServers())
                .replace(";", ""));
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                sql.executeSql("SELECT account, cents FROM balances").collect()) {
            // the last record of the topic updates acct-4 to 290; a tombstone deleted an account before
            while (!rows.contains("+U[acct-4, 290]") && it.hasNext()) {
                rows.add(it.next().toString());
            }
        }
        assertThat(rows).contains("+U[acct-4, 290]").anyMatch(r -> r.startsWith("-D[acct-"));
    }

    private static final String AGGREGATE = "SELECT COUNT(*) AS accounts, SUM(cents) AS total FROM %s";

    /** The result a changelog ends with: inserts and updates-after added, retractions removed. */
    private static List<String> materialized(List<String> changelog) {
        List<String> state = new ArrayList<>();
        for (String change : changelog) {
            String row = change.substring(change.indexOf('['));
            if (change.startsWith("+I") || change.startsWith("+U")) {
                state.add(row);
            } else {
                assertThat(state.remove(row))
                        .as("retracts a row it emitted: " + change)
                        .isTrue();
            }
        }
        return state;
    }

    /** Runs {@code query} over a table of each connector; asserts equal changelogs and returns ours. */
    private List<String> sameRows(String query) {
        List<String> official = rows("upsert-kafka", query);
        List<String> ours = rows(StreamSplitUpsertKafkaTableFactory.IDENTIFIER, query);
        assertThat(ours)
                .as("changelog of 'streamsplit-upsert-kafka' vs 'upsert-kafka'")
                .containsExactlyInAnyOrderElementsOf(official);
        return ours;
    }

    private List<String> rows(String connector, String query) {
        String table = "b" + TABLES.incrementAndGet();
        sql.executeSql("CREATE TABLE " + table + " (account STRING, cents BIGINT, PRIMARY KEY (account) NOT ENFORCED)"
                + " WITH ('connector' = '" + connector + "', 'topic' = '" + TOPIC + "',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                + " 'scan.bounded.mode' = 'latest-offset', 'key.format' = 'raw', 'value.format' = 'json')");
        return Topics.rowsReadBy(
                sql,
                connector.equals("upsert-kafka") ? "Source: KafkaSource-" : "Source: StreamSplitKafkaSource-",
                String.format(query, table));
    }
}
