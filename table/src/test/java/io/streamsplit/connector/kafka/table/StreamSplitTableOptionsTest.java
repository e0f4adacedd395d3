package io.streamsplit.connector.kafka.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

/** A table's reading options: the source's declared settings are its {@code scan.<key>} options too. */
class StreamSplitTableOptionsTest {

    @Test
    void everyDeclaredSettingOfTheSourceIsATableOption() {
        assertThat(StreamSplitTableOptions.all())
                .extracting(ConfigOption::key)
                .contains("scan.max-poll-records", "scan.bad-record-policy");
    }

    @Test
    void aTableSetsADeclaredSettingByItsScanKey() {
        StreamSplitTableOptions.Reading reading = StreamSplitTableOptions.Reading.of(
                Configuration.fromMap(Map.of("scan.max-poll-records", "50")), "orders", null);

        assertThat(reading.sourceOptions()).containsEntry(SourceOptions.MAX_POLL_RECORDS.key(), 50);
        assertThat(StreamSplitTableOptions.Reading.of(new Configuration(), "orders", null)
                        .sourceOptions())
                .as("unset: the source's default")
                .isEmpty();
    }

    @Test
    void aValueThatBreaksTheSettingsRuleIsRefusedNamingTheTableAndTheOption() {
        assertThatThrownBy(() -> StreamSplitTableOptions.Reading.of(
                        Configuration.fromMap(Map.of("scan.max-poll-records", "0")), "default.orders", null))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Table default.orders: 'scan.max-poll-records' = '0' must be at least 1; remove it for the"
                        + " default 2000.");
    }
}
