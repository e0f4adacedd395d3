package io.streamsplit.boot.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.actuate.SourceState;
import io.streamsplit.boot.actuate.StreamSplitEndpoint;
import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.actuate.deadletter.DeadLettersEndpoint;
import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.remote.JobJars;
import io.streamsplit.connector.kafka.lineage.KafkaLineage;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application whose job is only {@code streamsplit.sql}: a YAML source read as a table (columns from its
 * {@code type}, {@code rowtime} with its watermarks), a view, a filter into an exactly-once JSON sink keyed by a
 * column, and an event-time window into a second sink, all in one job on the embedded cluster. And what a
 * mistake in a statement looks like at startup.
 */
class SqlPipelineIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final String STATEMENTS = "streamsplit.sql.statements.";

    @Test
    void aYamlOnlyApplicationRunsItsStatementsAsOneJob() throws Exception {
        createTopics("sql", 2);
        try (ConfigurableApplicationContext app = start(
                "sql",
                STATEMENTS + "big-orders=CREATE TEMPORARY VIEW big_orders AS"
                        + " SELECT id, customer, amount FROM orders WHERE amount >= 100",
                STATEMENTS + "write-big=INSERT INTO big SELECT id, UPPER(customer) AS customer, amount FROM big_orders",
                STATEMENTS + "per-minute=INSERT INTO `per-minute`\n"
                        + "SELECT customer, window_start, COUNT(*) AS orders, SUM(amount) AS total\n"
                        + "FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rowtime), INTERVAL '1' MINUTE))\n"
                        + "GROUP BY customer, window_start, window_end")) {
            assertThat(app.getBean(SqlPipeline.class)).isNotNull();
            Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10));
            List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
            orders.add(order(0, minute.plusSeconds(1), "o1", "ann", 50));
            orders.add(order(0, minute.plusSeconds(2), "o2", "ann", 150));
            orders.add(order(1, minute.plusSeconds(3), "o3", "bob", 200));
            orders.add(order(1, minute.plusSeconds(61), "o4", "ann", 300));
            // later orders on both partitions move the watermark past the first two minutes
            orders.add(order(0, minute.plusSeconds(240), "o5", "cid", 1));
            orders.add(order(1, minute.plusSeconds(240), "o6", "cid", 2));
            KafkaTopics.write(KAFKA.bootstrapServers(), orders);

            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                Map<String, String> big = KafkaTopics.readAll(KAFKA.bootstrapServers(), "sql-big").stream()
                        .collect(Collectors.toMap(
                                record -> new String(record.key(), StandardCharsets.UTF_8), SqlPipelineIT::value));
                assertThat(big)
                        .containsOnly(
                                Map.entry("o2", "{\"id\":\"o2\",\"customer\":\"ANN\",\"amount\":150}"),
                                Map.entry("o3", "{\"id\":\"o3\",\"customer\":\"BOB\",\"amount\":200}"),
                                Map.entry("o4", "{\"id\":\"o4\",\"customer\":\"ANN\",\"amount\":300}"));
                assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "sql-per-minute"))
                        .containsExactlyInAnyOrder(
                                "{\"customer\":\"ann\",\"window_start\":\"" + local(minute)
                                        + "\",\"orders\":2,\"total\":200}",
                                "{\"customer\":\"bob\",\"window_start\":\"" + local(minute)
                                        + "\",\"orders\":1,\"total\":200}",
                                "{\"customer\":\"ann\",\"window_start\":\"" + local(minute.plusSeconds(60))
                                        + "\",\"orders\":1,\"total\":300}");
            });
            // a SQL job is a job like any other: health follows its checkpoints, the split state shows its source
            StreamSplitHealthIndicator health = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(health.health().getStatus()).isEqualTo(Status.UP));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                SourceState source =
                        app.getBean(KafkaSplitStates.class).read().sources().get("orders");
                assertThat(source.recordsIn()).isEqualTo(6);
                assertThat(source.splits()).hasSize(2);
            });
        }
    }

    @Test
    void aJsonSourceWithDeclaredColumnsIsATableWithoutAnyJavaClass() throws Exception {
        KAFKA.broker().createTopic("sql-columns-orders", 1);
        KAFKA.broker().createTopic("sql-columns-big", 1);
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(SqlOrdersApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=sql-columns",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                        "streamsplit.kafka.sources.orders.topics=sql-columns-orders",
                        "streamsplit.kafka.sources.orders.format=json",
                        "streamsplit.kafka.sources.orders.columns.id=STRING",
                        "streamsplit.kafka.sources.orders.columns.amount=DECIMAL(10, 2)",
                        "streamsplit.kafka.sources.orders.columns.placedAt=TIMESTAMP(3)",
                        "streamsplit.kafka.sources.orders.bad-record-policy=skip",
                        "streamsplit.kafka.sinks.big.topic=sql-columns-big",
                        "streamsplit.kafka.sinks.big.format=json",
                        "streamsplit.kafka.sinks.big.key=id",
                        "streamsplit.flink.checkpointing.interval=500ms",
                        STATEMENTS + "big=INSERT INTO big SELECT id, amount * 2 AS doubled, placedAt,"
                                + " TYPEOF(amount) AS amountType FROM orders WHERE amount >= 100")
                .run()) {
            KafkaTopics.write(
                    KAFKA.bootstrapServers(),
                    List.of(
                            json("{\"id\":\"o1\",\"amount\":99.99,\"placedAt\":\"2026-12-04T10:00:00\"}"),
                            json("{\"id\":\"o2\",\"amount\":\"lots\"}"), // a bad record: skipped, counted
                            json("{\"id\":\"o3\",\"amount\":100.05,\"placedAt\":\"2026-12-04 10:00:01.5\"}")));

            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "sql-columns-big"))
                            .containsExactly("{\"id\":\"o3\",\"doubled\":200.10,\"placedAt\":"
                                    + "\"2026-12-04T10:00:01.5\",\"amountType\":\"DECIMAL(10, 2)\"}"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                SourceState source =
                        app.getBean(KafkaSplitStates.class).read().sources().get("orders");
                assertThat(source.recordsIn()).isEqualTo(3);
                assertThat(source.recordsSkipped()).isEqualTo(1);
            });
        }
    }

    private static ProducerRecord<byte[], byte[]> json(String value) {
        return new ProducerRecord<>("sql-columns-orders", 0, null, null, value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aStreamSplitTableAStatementDeclaresIsShownAndPausedByTheEndpointLikeAYamlSource() throws Exception {
        createTopics("sql-table", 1);
        KAFKA.broker().createTopic("sql-table-clicks", 1);
        KAFKA.broker().createTopic("sql-table-clicks.DLT", 1);
        String table = "default_catalog.default_database.clicks";
        try (ConfigurableApplicationContext app = start(
                "sql-table",
                "streamsplit.kafka.control-topic=sql-table-control",
                "spring.jmx.enabled=true",
                "management.endpoints.jmx.exposure.include=streamsplit,deadletters",
                STATEMENTS + "declare-clicks=CREATE TABLE clicks (id STRING, page STRING) WITH ("
                        + " 'connector' = 'streamsplit-kafka', 'topic' = 'sql-table-clicks',"
                        + " 'properties.bootstrap.servers' = '${streamsplit.kafka.bootstrap-servers}',"
                        + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json',"
                        + " 'scan.bad-record-policy' = 'dead-letter', 'scan.dead-letter-topic' = 'sql-table-clicks.DLT')",
                STATEMENTS + "clicks=INSERT INTO big SELECT id, page AS customer, CAST(1 AS BIGINT) AS amount"
                        + " FROM clicks")) {
            StreamSplitEndpoint endpoint = app.getBean(StreamSplitEndpoint.class);
            KafkaTopics.write(
                    KAFKA.bootstrapServers(),
                    List.of(
                            click("c1", "/home"),
                            new ProducerRecord<>(
                                    "sql-table-clicks", 0, null, null, "not json".getBytes(StandardCharsets.UTF_8))));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> bigIds("sql-table-big"), ids -> ids.equals(List.of("c1")));

            // its dead letters: on its topic, listed by /actuator/deadletters, not replayed while still bad
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> KafkaTopics.readAll(KAFKA.bootstrapServers(), "sql-table-clicks.DLT")
                                    .size(),
                            n -> n == 1);
            DeadLettersEndpoint deadLetters = app.getBean(DeadLettersEndpoint.class);
            assertThat(deadLetters.deadLetters()).containsKey(table);
            assertThat(deadLetters.deadLetters().get(table).toString()).contains("sql-table-clicks.DLT");
            assertThatThrownBy(() -> deadLetters.replay(table, null, null, null, null, null))
                    .hasMessageContaining("1 of 1 dead letters of source '" + table + "' still fail");

            // listed under its full name, with its split state, and controllable through the app's control topic
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                SourceState source =
                        app.getBean(KafkaSplitStates.class).read().sources().get(table);
                assertThat(source).as("kafkasplits lists the table").isNotNull();
                assertThat(source.recordsIn()).isEqualTo(2);
                assertThat(source.recordsDeadLettered()).isEqualTo(1);
                assertThat(source.splits()).hasSize(1);
            });
            @SuppressWarnings("unchecked")
            Map<String, Object> listed =
                    (Map<String, Object>) ((Map<String, Object>) endpoint.job().get("sources")).get(table);
            assertThat(listed).as("%s", listed).containsEntry("controllable", true);

            // lineage: the table's topic in, the sink's topic and the table's dead-letter topic out
            String cluster = KafkaLineage.namespace(KAFKA.bootstrapServers());
            @SuppressWarnings("unchecked")
            Map<String, List<Map<String, Object>>> lineage =
                    (Map<String, List<Map<String, Object>>>) endpoint.job().get("lineage");
            assertThat(lineage.get("inputs")).contains(Map.of("namespace", cluster, "name", "sql-table-clicks"));
            assertThat(lineage.get("outputs"))
                    .contains(
                            Map.of("namespace", cluster, "name", "sql-table-big"),
                            Map.of("namespace", cluster, "name", "sql-table-clicks.DLT"));

            Map<String, Object> paused = endpoint.operate("pause", null, table, null);
            assertThat(paused).as("%s", paused).containsEntry("applied", true).containsEntry("state", "PAUSED");
            KafkaTopics.write(KAFKA.bootstrapServers(), List.of(click("c2", "/cart")));
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> bigIds("sql-table-big"), ids -> ids.equals(List.of("c1")));
            Map<String, Object> resumed = endpoint.operate("resume", null, table, null);
            assertThat(resumed).as("%s", resumed).containsEntry("applied", true);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> bigIds("sql-table-big"), ids -> ids.equals(List.of("c1", "c2")));
        }
    }

    private static ProducerRecord<byte[], byte[]> click(String id, String page) {
        String json = "{\"id\":\"" + id + "\",\"page\":\"" + page + "\"}";
        return new ProducerRecord<>("sql-table-clicks", 0, null, null, json.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> bigIds(String topic) {
        return KafkaTopics.readAll(KAFKA.bootstrapServers(), topic).stream()
                .map(record -> new String(record.key(), StandardCharsets.UTF_8))
                .toList();
    }

    @Test
    void anAggregateWithoutAWindowGoesToAnUpsertTableAStatementDeclares() throws Exception {
        createTopics("sql-upsert", 1);
        KAFKA.broker().createTopic("sql-upsert-totals", 1, Map.of("cleanup.policy", "compact"));
        try (ConfigurableApplicationContext app = start(
                "sql-upsert",
                STATEMENTS + "declare-totals=CREATE TABLE totals (customer STRING, total BIGINT,"
                        + " PRIMARY KEY (customer) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',"
                        + " 'topic' = 'sql-upsert-totals',"
                        + " 'properties.bootstrap.servers' = '${streamsplit.kafka.bootstrap-servers}',"
                        + " 'key.format' = 'raw', 'value.format' = 'json')",
                STATEMENTS + "totals=INSERT INTO totals SELECT customer, SUM(amount) FROM orders GROUP BY customer")) {
            KafkaTopics.write(
                    KAFKA.bootstrapServers(),
                    List.of(
                            order("sql-upsert-orders", 0, Instant.now(), "o1", "ann", 50),
                            order("sql-upsert-orders", 0, Instant.now(), "o2", "bob", 500),
                            order("sql-upsert-orders", 0, Instant.now(), "o3", "ann", 25)));
            // the last value per key is the total: what a compacted topic keeps
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Map<String, String> latest = new java.util.HashMap<>();
                KafkaTopics.readAll(KAFKA.bootstrapServers(), "sql-upsert-totals")
                        .forEach(record -> latest.put(new String(record.key(), StandardCharsets.UTF_8), value(record)));
                assertThat(latest)
                        .containsOnly(
                                Map.entry("ann", "{\"customer\":\"ann\",\"total\":75}"),
                                Map.entry("bob", "{\"customer\":\"bob\",\"total\":500}"));
            });
        }
    }

    @Test
    void aPipelineBeanReadsAViewTheStatementsCreate() throws Exception {
        createTopics("sql-bean", 1);
        KAFKA.broker().createTopic("sql-bean-alerts", 1);
        try (ConfigurableApplicationContext app = start(
                "sql-bean",
                new Class<?>[] {AlertsPipeline.class},
                STATEMENTS + "big-orders=CREATE TEMPORARY VIEW big_orders AS SELECT id, amount FROM orders"
                        + " WHERE amount >= 100",
                "streamsplit.kafka.sinks.alerts.topic=sql-bean-alerts",
                "streamsplit.kafka.sinks.alerts.format=string")) {
            KafkaTopics.write(
                    KAFKA.bootstrapServers(),
                    List.of(
                            order("sql-bean-orders", 0, Instant.now(), "o1", "ann", 50),
                            order("sql-bean-orders", 0, Instant.now(), "o2", "bob", 500)));
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "sql-bean-alerts"))
                            .containsExactly("big order o2: 500"));
        }
    }

    @Test
    void theStatementsRunOnAFlinkSessionClusterToo() throws Exception {
        createTopics("sql-remote", 2);
        URI rest = SharedFlinkCluster.get().restAddress();
        try (ConfigurableApplicationContext app = start(
                "sql-remote",
                STATEMENTS + "write-big=INSERT INTO big SELECT id, UPPER(customer) AS customer, amount FROM orders"
                        + " WHERE amount >= 100",
                "streamsplit.flink.mode=remote",
                "streamsplit.flink.remote.host=" + rest.getHost(),
                "streamsplit.flink.remote.port=" + rest.getPort(),
                "streamsplit.flink.shutdown.job=cancel",
                "streamsplit.flink.remote.exclude-jars=" + SharedFlinkCluster.TEST_LIBRARIES)) {
            KafkaTopics.write(
                    KAFKA.bootstrapServers(),
                    List.of(
                            order("sql-remote-orders", 0, Instant.now(), "o1", "ann", 50),
                            order("sql-remote-orders", 1, Instant.now(), "o2", "bob", 500)));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "sql-remote-big"))
                            .containsExactly("{\"id\":\"o2\",\"customer\":\"BOB\",\"amount\":500}"));
            // the planner stays in the application; the SQL module's row functions travel with the job
            assertThat(app.getBean(JobJars.class).shipped())
                    .extracting(jar -> jar.getFileName().toString())
                    .anyMatch(name -> name.startsWith("streamsplit-table") || name.endsWith("table-classes.jar"))
                    .noneMatch(name -> name.startsWith("flink-table"));
        }
    }

    /** A bean pipeline over a SQL view: the statements run first, so the view is there when it builds. */
    @Configuration(proxyBeanMethods = false)
    static class AlertsPipeline {

        @Bean
        StreamSplitPipeline alerts() {
            return pipeline -> {
                StreamTableEnvironment tables = SqlTables.of(pipeline);
                DataStream<String> alerts = tables.toDataStream(tables.from("big_orders"))
                        .map(row -> "big order " + row.getField("id") + ": " + row.getField("amount"))
                        .returns(Types.STRING);
                pipeline.sink("alerts", alerts);
            };
        }
    }

    @Test
    void aMistakeInAStatementFailsTheStartWithItsNameLineAndColumn() {
        createTopics("sql-bad", 1);
        assertThatThrownBy(
                        () -> start(
                                "sql-bad",
                                STATEMENTS
                                        + "write-big=INSERT INTO big\nSELECT id, customer, amount\nFROM orders WHERE amout > 1"))
                .satisfies(failure -> {
                    FailureAnalysis analysis = FailureReports.analyze(failure);
                    assertThat(analysis.getDescription())
                            .contains(STATEMENTS + "write-big")
                            .contains("Value:    'INSERT INTO big\n              SELECT id, customer, amount\n")
                            .contains("at line 3, column 19")
                            .contains("Column 'amout' not found")
                            .contains("FROM orders WHERE amout > 1\n                      ^");
                    assertThat(analysis.getAction()).contains("the sources [orders]", "the sinks [big, per-minute]");
                });
        assertThatThrownBy(() -> start(
                        "sql-bad",
                        STATEMENTS + "totals=INSERT INTO big SELECT customer AS id, customer, SUM(amount) AS amount"
                                + " FROM orders GROUP BY customer"))
                .satisfies(failure -> {
                    FailureAnalysis analysis = FailureReports.analyze(failure);
                    assertThat(analysis.getDescription())
                            .contains(STATEMENTS + "totals", "produces updates", "sink 'big' appends records");
                    assertThat(analysis.getAction()).contains("TUMBLE", "'upsert-kafka'");
                });
        assertThatThrownBy(() -> start("sql-bad", STATEMENTS + "peek=SELECT * FROM orders"))
                .satisfies(failure -> assertThat(FailureReports.analyze(failure).getDescription())
                        .contains(STATEMENTS + "peek", "is a query on its own, which writes nowhere"));
        assertThatThrownBy(() -> start(
                        "sql-bad",
                        STATEMENTS + "write-big=INSERT INTO big SELECT customer FROM orders",
                        "streamsplit.kafka.sinks.big.key=id"))
                .hasRootCauseInstanceOf(InvalidStreamSplitConfigurationException.class)
                .rootCause()
                .hasMessageContaining("streamsplit.kafka.sinks.big.key = id")
                .hasMessageContaining("columns [customer]");
    }

    /** The topics of {@link #start}'s source and sinks (every test's sinks must exist, used or not). */
    private static void createTopics(String name, int sourcePartitions) {
        KAFKA.broker().createTopic(name + "-orders", sourcePartitions);
        KAFKA.broker().createTopic(name + "-big", 1);
        KAFKA.broker().createTopic(name + "-per-minute", 1);
    }

    private static ConfigurableApplicationContext start(String name, String... statements) {
        return start(name, new Class<?>[0], statements);
    }

    private static ConfigurableApplicationContext start(String name, Class<?>[] beans, String... statements) {
        return new SpringApplicationBuilder(SqlOrdersApplication.class)
                .sources(beans)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=" + name,
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                        "streamsplit.kafka.sources.orders.topics=" + name + "-orders",
                        "streamsplit.kafka.sources.orders.format=json",
                        "streamsplit.kafka.sources.orders.type=" + SqlOrdersApplication.Order.class.getName(),
                        "streamsplit.kafka.sources.orders.watermarks.strategy=bounded-out-of-orderness",
                        "streamsplit.kafka.sources.orders.watermarks.max-out-of-orderness=1s",
                        "streamsplit.kafka.sinks.big.topic=" + name + "-big",
                        "streamsplit.kafka.sinks.big.format=json",
                        "streamsplit.kafka.sinks.big.key=id",
                        "streamsplit.kafka.sinks.big.delivery-guarantee=exactly-once",
                        "streamsplit.kafka.sinks.per-minute.topic=" + name + "-per-minute",
                        "streamsplit.kafka.sinks.per-minute.format=json",
                        "streamsplit.flink.parallelism=2",
                        "streamsplit.flink.checkpointing.interval=500ms")
                .properties(statements)
                .run();
    }

    private static ProducerRecord<byte[], byte[]> order(
            int partition, Instant timestamp, String id, String customer, long amount) {
        return order("sql-orders", partition, timestamp, id, customer, amount);
    }

    private static ProducerRecord<byte[], byte[]> order(
            String topic, int partition, Instant timestamp, String id, String customer, long amount) {
        String json = "{\"id\":\"" + id + "\",\"customer\":\"" + customer + "\",\"amount\":" + amount + "}";
        return new ProducerRecord<>(
                topic, partition, timestamp.toEpochMilli(), null, json.getBytes(StandardCharsets.UTF_8));
    }

    /** A window's start: TIMESTAMP(3) in the session's time zone (the JVM's), as JSON writes a LocalDateTime. */
    private static String local(Instant instant) {
        return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(LocalDateTime.ofInstant(instant, ZoneId.systemDefault()));
    }

    private static String value(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }
}
