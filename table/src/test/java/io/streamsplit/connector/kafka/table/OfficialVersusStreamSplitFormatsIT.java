package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.registry.test.TestSchemaRegistry;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The differential test ({@link OfficialVersusStreamSplitTableIT}) for key and value format pairs: csv/avro,
 * raw/csv, and Avro values in the Confluent wire format through a real schema registry; each written by the
 * official connector's table, read through a table of each connector.
 */
class OfficialVersusStreamSplitFormatsIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private SameRows same;

    /** In the test's thread: the planner keeps per-thread state. */
    @BeforeEach
    void tableEnvironment() {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sql.getConfig().set("parallelism.default", "2");
        same = new SameRows(sql, KAFKA.bootstrapServers());
    }

    @Test
    void csvKeysWithAvroValuesAndRawKeysWithCsvValues() throws Exception {
        for (String formats : List.of(
                "'key.format' = 'csv', 'value.format' = 'avro'", "'key.format' = 'raw', 'value.format' = 'csv'")) {
            String topic = SameRows.unique("clicks-");
            KAFKA.broker().createTopic(topic, 2, Map.of("retention.ms", "-1"));
            String options = "'key.fields' = 'user', 'value.fields-include' = 'EXCEPT_KEY', " + formats;
            same.writeThreeClicks(topic, options);
            assertThat(same.of(
                            topic,
                            "`user` STRING, page STRING, n INT",
                            "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', "
                                    + options,
                            "SELECT `user`, page, n FROM %s"))
                    .as(formats)
                    .hasSize(3) // the null page as each format writes it (CSV: empty), the same through both
                    .contains("+I[user-0, /a, 1]", "+I[user-1, /b, 2]");
        }
    }

    @Test
    void avroConfluentValuesThroughARealSchemaRegistry() throws Exception {
        String topic = "clicks-avro";
        KAFKA.broker().createTopic(topic, 2, Map.of("retention.ms", "-1"));
        String format = "'value.format' = 'avro-confluent', 'value.avro-confluent.url' = '"
                + TestSchemaRegistry.shared().url() + "'";
        // written by Flink's own format, which registers the schema under clicks-avro-value
        same.writeThreeClicks(
                topic, "'key.format' = 'raw', 'key.fields' = 'user', 'value.fields-include' = 'EXCEPT_KEY', " + format);

        List<String> rows = same.of(
                topic,
                "`user` STRING, page STRING, n INT, `partition` INT METADATA VIRTUAL",
                "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                        + " 'key.format' = 'raw', 'key.fields' = 'user', 'value.fields-include' = 'EXCEPT_KEY', "
                        + format,
                "SELECT `user`, page, n FROM %s");
        assertThat(rows).containsExactlyInAnyOrder("+I[user-0, /a, 1]", "+I[user-1, /b, 2]", "+I[user-0, null, 3]");
    }
}
