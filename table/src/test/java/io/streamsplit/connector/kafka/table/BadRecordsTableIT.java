package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What only {@code 'streamsplit-kafka'} has: a record the value format cannot read fails the query (as with
 * {@code 'kafka'}), is skipped, or is written as read to a dead-letter topic while the readable rows come out;
 * a policy without what it needs is refused when the table is used, saying what to do; a table of a topic
 * pattern finds a new topic and lets go of a deleted one while it runs; a table with a control topic
 * reads nothing while paused and everything once resumed.
 */
class BadRecordsTableIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final String TOPIC = "payments-with-garbage";

    private TableEnvironment sql;

    @BeforeAll
    static void writePaymentsAndOneGarbageRecord() throws Exception {
        KAFKA.broker().createTopic(TOPIC, 1);
        Properties producer = new Properties();
        producer.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (KafkaProducer<String, String> kafka =
                new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            kafka.send(new ProducerRecord<>(TOPIC, "{\"id\":1,\"cents\":100}")).get();
            kafka.send(new ProducerRecord<>(TOPIC, "not json at all")).get();
            kafka.send(new ProducerRecord<>(TOPIC, "{\"id\":2,\"cents\":200}")).get();
        }
    }

    /** In the test's thread: the planner keeps per-thread state. */
    @BeforeEach
    void tableEnvironment() {
        sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sql.getConfig().set("parallelism.default", "1");
    }

    private void createTable(String name, String options) {
        sql.executeSql("CREATE TABLE " + name + " (id INT, cents BIGINT) WITH ('connector' = 'streamsplit-kafka',"
                + " 'topic' = '" + TOPIC + "', 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'value.format' = 'json'" + options + ")");
    }

    private List<String> rows(String table) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                sql.executeSql("SELECT id, cents FROM " + table).collect()) {
            it.forEachRemaining(row -> rows.add(row.getField(0) + ":" + row.getField(1)));
        }
        return rows;
    }

    @Test
    void aSkippingTableReadsTheGoodRowsAndAFailingOneFailsTheQuery() throws Exception {
        createTable("skipping", ", 'scan.bad-record-policy' = 'skip', 'scan.max-records-per-second' = '1000'");
        assertThat(rows("skipping")).containsExactly("1:100", "2:200");

        createTable("failing", "");
        assertThatThrownBy(() -> rows("failing"))
                .hasStackTraceContaining("Failed to deserialize JSON 'not json at all'");
    }

    @Test
    void theDocsDeadLetterTableWritesTheBadRecordAsReadWithWhyAndTheGoodRowsComeOut() throws Exception {
        String deadLetters = "payments.DLT";
        KAFKA.broker().createTopic(deadLetters, 1);
        sql.getConfig().set("execution.checkpointing.interval", "100ms");
        String docs = Files.readString(Path.of("../docs/sql.md"));
        Matcher sample = Pattern.compile("```sql\n(CREATE TABLE payments .*?);\n```", Pattern.DOTALL)
                .matcher(docs);
        assertThat(sample.find()).as("docs/sql.md has the dead-letter sample").isTrue();
        sql.executeSql(sample.group(1)
                .replace("'topic' = 'payments'", "'topic' = '" + TOPIC + "'")
                .replace("localhost:9092", KAFKA.bootstrapServers())
                .replace("\n)", ", 'scan.bounded.mode' = 'latest-offset')"));

        assertThat(rows("payments")).containsExactly("1:100", "2:200");

        List<ConsumerRecord<byte[], byte[]>> written = readAll(deadLetters);
        assertThat(written).hasSize(1);
        ConsumerRecord<byte[], byte[]> dead = written.get(0);
        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("not json at all");
        assertThat(header(dead, DeadLetterRecord.HEADER_TOPIC)).isEqualTo(TOPIC);
        assertThat(header(dead, DeadLetterRecord.HEADER_OFFSET)).isEqualTo("1");
        assertThat(header(dead, DeadLetterRecord.HEADER_SOURCE)).isEqualTo("default_catalog.default_database.payments");
        assertThat(header(dead, DeadLetterRecord.HEADER_EXCEPTION_MESSAGE)).contains("not json at all");
        assertThat(header(dead, "kafka_dlt-original-topic")).isEqualTo(TOPIC);
    }

    @Test
    void aDeadLetterThatCannotBeWrittenFailsTheQueryNamingTheTopic() {
        sql.getConfig().set("restart-strategy.type", "none");
        createTable(
                "unwritable", ", 'scan.bad-record-policy' = 'dead-letter', 'scan.dead-letter-topic' = 'bad topic!'");

        assertThatThrownBy(() -> rows("unwritable"))
                .hasStackTraceContaining("Source default_catalog.default_database.unwritable could not write a dead"
                        + " letter to topic bad topic!");
    }

    @Test
    void aDeadLetterPolicyWithoutItsTopicOrATopicWithoutThePolicyIsRefusedSayingWhatToDo() {
        createTable("no_topic", ", 'scan.bad-record-policy' = 'dead-letter'");
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM no_topic"))
                .rootCause()
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Table default_catalog.default_database.no_topic:"
                        + " 'scan.bad-record-policy' = 'dead-letter' needs the topic to write them to:"
                        + " add 'scan.dead-letter-topic' = '<topic>', or use 'skip'.");
        createTable("no_policy", ", 'scan.dead-letter-topic' = 'x.DLT'");
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM no_policy"))
                .rootCause()
                .hasMessageContaining("'scan.dead-letter-topic' = 'x.DLT' is only used with"
                        + " 'scan.bad-record-policy' = 'dead-letter', and this table's policy is 'fail'");
        createTable("typo", ", 'scan.bad-record-policy' = 'ignore'");
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM typo"))
                .rootCause()
                .hasMessageContaining("'ignore' is not a policy; use 'fail', 'skip' or 'dead-letter'");
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Properties consumer = new Properties();
        consumer.put("bootstrap.servers", KAFKA.bootstrapServers());
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> kafka =
                new KafkaConsumer<>(consumer, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0));
            kafka.assign(partitions);
            kafka.seekToBeginning(partitions);
            long end = kafka.endOffsets(partitions).get(partitions.get(0));
            while (kafka.position(partitions.get(0)) < end) {
                kafka.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
        return new String(record.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
    }

    @Test
    void aTableWithAControlTopicStaysPausedUntilItIsResumed() throws Exception {
        String control = "table-control";
        KAFKA.broker().createTopic(control, 1, Map.of("cleanup.policy", "compact"));
        String key = "default_catalog.default_database.controlled";
        writeControl(control, key, "paused=true");
        sql.executeSql("CREATE TABLE controlled (id INT, cents BIGINT) WITH ('connector' = 'streamsplit-kafka',"
                + " 'topic' = '" + TOPIC + "', 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers() + "',"
                + " 'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json',"
                + " 'scan.bad-record-policy' = 'skip', 'scan.control-topic' = '" + control + "')");
        List<String> rows = new CopyOnWriteArrayList<>();
        TableResult query = sql.executeSql("SELECT id, cents FROM controlled");
        Thread reading = new Thread(() -> {
            try (CloseableIterator<Row> it = query.collect()) {
                it.forEachRemaining(row -> rows.add(row.getField(0) + ":" + row.getField(1)));
            } catch (Exception stopped) {
                // the query is cancelled at the end of the test
            }
        });
        reading.start();
        try {
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(rows::isEmpty);

            writeControl(control, key, "paused=false");

            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(rows).containsExactly("1:100", "2:200"));
        } finally {
            query.getJobClient().orElseThrow().cancel().get();
            reading.join(30_000);
        }
    }

    @Test
    void aPatternTableFindsANewTopicAndLetsGoOfADeletedOneWhileItRuns() throws Exception {
        KAFKA.broker().createTopic("events-a", 1);
        KAFKA.broker().createTopic("events-b", 1);
        writeControl("events-a", null, "{\"id\":1,\"cents\":1}");
        writeControl("events-b", null, "{\"id\":2,\"cents\":2}");
        sql.executeSql("CREATE TABLE events (id INT, cents BIGINT) WITH ('connector' = 'streamsplit-kafka',"
                + " 'topic-pattern' = 'events-.*', 'properties.bootstrap.servers' = '" + KAFKA.bootstrapServers()
                + "', 'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json',"
                + " 'scan.topic-partition-discovery.interval' = '200 ms')");
        List<String> rows = new CopyOnWriteArrayList<>();
        TableResult query = sql.executeSql("SELECT id FROM events");
        Thread reading = new Thread(() -> {
            try (CloseableIterator<Row> it = query.collect()) {
                it.forEachRemaining(row -> rows.add(String.valueOf(row.getField(0))));
            } catch (Exception stopped) {
                // the query is cancelled at the end of the test
            }
        });
        reading.start();
        try {
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(rows).containsExactlyInAnyOrder("1", "2"));

            KAFKA.broker().deleteTopic("events-a");
            KAFKA.broker().createTopic("events-c", 1);
            writeControl("events-c", null, "{\"id\":3,\"cents\":3}");
            writeControl("events-b", null, "{\"id\":4,\"cents\":4}");

            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(rows).containsExactlyInAnyOrder("1", "2", "3", "4"));
            assertThat(query.getJobClient().orElseThrow().getJobStatus().get())
                    .isEqualTo(org.apache.flink.api.common.JobStatus.RUNNING);
        } finally {
            query.getJobClient().orElseThrow().cancel().get();
            reading.join(30_000);
        }
    }

    private static void writeControl(String topic, @Nullable String key, String value) throws Exception {
        Properties producer = new Properties();
        producer.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (KafkaProducer<String, String> kafka =
                new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            kafka.send(new ProducerRecord<>(topic, key, value)).get();
        }
    }
}
