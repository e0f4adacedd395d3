package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential test: the same table read once with Flink's {@code 'kafka'} connector and once with
 * {@code 'streamsplit-kafka'}, everything else in the {@code WITH} clause equal, gives the same rows, for
 * each startup mode, each bounded mode, the metadata columns with raw keys and JSON values, and an event-time
 * window; {@link OfficialVersusStreamSplitFormatsIT} does the other key and value format pairs.
 */
class OfficialVersusStreamSplitTableIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final String TOPIC = "clicks";
    /** Record time of record i: one second apart from here, so timestamps split the topic predictably. */
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    private TableEnvironment sql;

    @BeforeAll
    static void writeClicks() throws Exception {
        // record times lie in the past: without this, retention would delete them while the test runs
        KAFKA.broker().createTopic(TOPIC, 2, Map.of("retention.ms", "-1"));
        Properties producer = new Properties();
        producer.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (KafkaProducer<String, String> kafka =
                new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 40; i++) {
                String user = "user-" + (i % 3);
                ProducerRecord<String, String> record = new ProducerRecord<>(
                        TOPIC, i % 2, T0 + i * 1_000L, user, "{\"page\":\"/p" + i + "\",\"n\":" + i + "}");
                record.headers().add("source", ("web-" + (i % 2)).getBytes(StandardCharsets.UTF_8));
                kafka.send(record).get();
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
    void earliestToLatestWithEveryMetadataColumnAndARawKey() {
        String columns = "`user` STRING, page STRING, n INT,"
                + " `topic` STRING METADATA VIRTUAL, `partition` INT METADATA VIRTUAL,"
                + " `offset` BIGINT METADATA VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',"
                + " `timestamp-type` STRING METADATA VIRTUAL, headers MAP<STRING, BYTES> METADATA VIRTUAL";
        String options = "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'key.format' = 'raw', 'key.fields' = 'user', 'value.format' = 'json',"
                + " 'value.fields-include' = 'EXCEPT_KEY'";
        List<String> rows = sameRows(
                columns,
                options,
                "SELECT `user`, page, n, `topic`, `partition`, `offset`,"
                        + " ts, `timestamp-type`, headers['source'] FROM %s");
        assertThat(rows).hasSize(40).anyMatch(r -> r.startsWith("+I[user-0, /p0, 0, clicks, 0, 0,"));
    }

    @Test
    void startingFromATimestampOrSpecificOffsets() {
        String columns = "page STRING, n INT";
        assertThat(sameRows(
                        columns,
                        "'scan.startup.mode' = 'timestamp', 'scan.startup.timestamp-millis' = '" + (T0 + 30_000)
                                + "', 'scan.bounded.mode' = 'latest-offset', 'value.format' = 'json'",
                        "SELECT page, n FROM %s"))
                .hasSize(10);
        assertThat(sameRows(
                        columns,
                        "'scan.startup.mode' = 'specific-offsets',"
                                + " 'scan.startup.specific-offsets' = 'partition:0,offset:15;partition:1,offset:18',"
                                + " 'scan.bounded.mode' = 'latest-offset', 'value.format' = 'json'",
                        "SELECT page, n FROM %s"))
                .hasSize(5 + 2);
    }

    @Test
    void startingFromTheGroupsCommitsAndFallingBackForAPartitionWithout() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            admin.alterConsumerGroupOffsets(
                            "clicks-readers", Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(17)))
                    .all()
                    .get();
        }
        assertThat(sameRows(
                        "page STRING, n INT",
                        "'scan.startup.mode' = 'group-offsets', 'properties.group.id' = 'clicks-readers',"
                                + " 'properties.auto.offset.reset' = 'earliest',"
                                + " 'scan.bounded.mode' = 'latest-offset', 'value.format' = 'json'",
                        "SELECT page, n FROM %s"))
                .hasSize(3 + 20);
    }

    @Test
    void stoppingAtATimestampOrSpecificOffsets() {
        String columns = "page STRING, n INT";
        assertThat(sameRows(
                        columns,
                        "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'timestamp',"
                                + " 'scan.bounded.timestamp-millis' = '" + (T0 + 10_000) + "', 'value.format' = 'json'",
                        "SELECT page, n FROM %s"))
                .hasSize(10);
        assertThat(sameRows(
                        columns,
                        "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'specific-offsets',"
                                + " 'scan.bounded.specific-offsets' = 'partition:0,offset:3;partition:1,offset:4',"
                                + " 'value.format' = 'json'",
                        "SELECT page, n FROM %s"))
                .hasSize(7);
    }

    @Test
    void anEventTimeWindowOverTheRecordTimestamps() {
        String columns = "`user` STRING, page STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',"
                + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND";
        List<String> rows = sameRows(
                columns,
                "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                        + " 'key.format' = 'raw', 'key.fields' = 'user', 'value.format' = 'json',"
                        + " 'value.fields-include' = 'EXCEPT_KEY'",
                "SELECT window_start, `user`, COUNT(*) FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts),"
                        + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end, `user`");
        assertThat(rows).hasSize(4 * 3);
    }

    @Test
    void theSampleOfTheDocsRuns() throws Exception {
        String docs = Files.readString(Path.of("../docs/sql.md"));
        Matcher block = Pattern.compile("```sql\n(.*?)```", Pattern.DOTALL).matcher(docs);
        assertThat(block.find()).as("docs/sql.md has a SQL sample").isTrue();
        String[] statements = block.group(1)
                .replace("localhost:9092", KAFKA.bootstrapServers())
                .split(";");
        sql.executeSql(statements[0]);
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(statements[1]).collect()) {
            while (rows.size() < 40 && it.hasNext()) {
                rows.add(it.next().toString());
            }
        }
        assertThat(rows).hasSize(40).contains("+I[user-0, /p0, 0, 0, 2026-01-01T00:00:00Z]");
    }

    @Test
    void aMistypedOptionIsRefusedWithTheOptionsThereAre() {
        sql.executeSql("CREATE TABLE typo (page STRING) WITH ('connector' = 'streamsplit-kafka', 'topic' = 'clicks',"
                + " 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                + " 'scan.startup.mod' = 'earliest-offset', 'value.format' = 'json')");
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM typo"))
                .hasStackTraceContaining("Unsupported options")
                .hasStackTraceContaining("scan.startup.mod")
                .hasStackTraceContaining("scan.startup.mode");
    }

    @Test
    void stoppingAtTheGroupsCommitsSaysWhatToUseInstead() {
        sql.executeSql("CREATE TABLE at_commits (page STRING) WITH ('connector' = 'streamsplit-kafka',"
                + " 'topic' = 'clicks', 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                + " 'properties.group.id' = 'clicks-readers', 'scan.bounded.mode' = 'group-offsets',"
                + " 'value.format' = 'json')");
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM at_commits"))
                .hasStackTraceContaining(
                        "'scan.bounded.mode' = 'group-offsets' is not supported by 'streamsplit-kafka'")
                .hasStackTraceContaining("'latest-offset'");
    }

    /** Runs {@code query} over a table of each connector on the clicks topic; asserts equal rows and returns them. */
    private List<String> sameRows(String columns, String options, String query) {
        return new SameRows(sql, KAFKA.bootstrapServers()).of(TOPIC, columns, options, query);
    }
}
