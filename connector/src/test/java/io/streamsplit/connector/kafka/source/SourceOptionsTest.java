package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The declared settings: each one a key, type, default, description and rule that the builder applies. */
class SourceOptionsTest {

    @Test
    void maxPollRecordsReachesTheReadersConsumerAndDefaultsTo2000() {
        assertThat(StreamSplitKafkaSourceBuilderTest.valid().build().consumerProperties())
                .containsEntry("max.poll.records", "2000");
        assertThat(StreamSplitKafkaSourceBuilderTest.valid()
                        .set(SourceOptions.MAX_POLL_RECORDS, 50)
                        .build()
                        .consumerProperties())
                .containsEntry("max.poll.records", "50");
        assertThat(StreamSplitKafkaSourceBuilderTest.valid()
                        .setProperty("max.poll.records", "100")
                        .build()
                        .consumerProperties())
                .as("given as a Kafka property, as before")
                .containsEntry("max.poll.records", "100");
        assertThat(StreamSplitKafkaSourceBuilderTest.valid()
                        .setProperty("max.poll.records", "100")
                        .set(SourceOptions.MAX_POLL_RECORDS, 50)
                        .build()
                        .consumerProperties())
                .as("the declared setting wins over the same Kafka property")
                .containsEntry("max.poll.records", "50");
    }

    @Test
    void aValueThatBreaksTheRuleIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> StreamSplitKafkaSourceBuilderTest.valid().set(SourceOptions.MAX_POLL_RECORDS, 0))
                .isInstanceOfSatisfying(InvalidKafkaSourceException.class, e -> {
                    assertThat(e.setting()).isEqualTo(InvalidKafkaSourceException.Setting.OPTION);
                    assertThat(e.optionKey()).isEqualTo("max-poll-records");
                    assertThat(e.propertyKey()).isNull();
                    assertThat(e.value()).isEqualTo(0);
                    assertThat(e.problem(s -> s.name())).isEqualTo("the value must be at least 1");
                    assertThat(e.action(s -> s.name())).contains("at least 1", "max-poll-records", "2000");
                });
    }

    @Test
    void theDiscoveryIntervalIsOffOrAtLeastItsFloorAndReachesTheEnumerator() {
        assertThat(StreamSplitKafkaSourceBuilderTest.valid().build().discoveryInterval())
                .as("off by default: partitions found once")
                .isZero();
        assertThat(StreamSplitKafkaSourceBuilderTest.valid()
                        .setPartitionDiscoveryInterval(Duration.ofSeconds(30))
                        .build()
                        .discoveryInterval())
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(StreamSplitKafkaSourceBuilderTest.valid()
                        .set(SourceOptions.DISCOVERY_INTERVAL, Duration.ofMillis(100))
                        .build()
                        .discoveryInterval())
                .as("the floor itself")
                .isEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() ->
                        StreamSplitKafkaSourceBuilderTest.valid().setPartitionDiscoveryInterval(Duration.ofMillis(10)))
                .isInstanceOfSatisfying(InvalidKafkaSourceException.class, e -> {
                    assertThat(e.optionKey()).isEqualTo("discovery-interval");
                    assertThat(e.problem(s -> s.name())).isEqualTo("the value must be 0 (off) or at least 100ms");
                    assertThat(e.action(s -> s.name())).contains("(default 0)");
                });
        assertThat(SourceOptions.DISCOVERY_INTERVAL.minimum()).isEqualTo(Duration.ofMillis(100));
        assertThat(SourceOptions.DISCOVERY_INTERVAL.tableKey())
                .as("Flink's 'kafka' connector's name, so a table moves between the two unchanged")
                .isEqualTo("scan.topic-partition-discovery.interval");
    }

    @Test
    void aRuleAcrossSettingsNamesTheDeclaredSetting() {
        assertThatThrownBy(() -> StreamSplitKafkaSourceBuilderTest.valid()
                        .setBounded(StoppingOffsets.latest())
                        .set(SourceOptions.DISCOVERY_INTERVAL, Duration.ofSeconds(5))
                        .build())
                .isInstanceOfSatisfying(InvalidKafkaSourceException.class, e -> {
                    assertThat(e.setting()).isEqualTo(InvalidKafkaSourceException.Setting.OPTION);
                    assertThat(e.optionKey()).isEqualTo("discovery-interval");
                    assertThat(e.action(s -> s.name()))
                            .isEqualTo("Remove it, or make the source unbounded" + " (STOPPING_OFFSETS).");
                });
    }

    @Test
    void everyOptionIsDeclaredCompletely() {
        assertThat(SourceOptions.all()).isNotEmpty().doesNotHaveDuplicates();
        for (SourceOption<?> option : SourceOptions.all()) {
            assertThat(option.key()).as("kebab case").matches("[a-z][a-z0-9]*(-[a-z0-9]+)*");
            assertThat(option.description()).as(option.key()).isNotBlank().endsWith(".");
            assertThat(allowsItsDefault(option))
                    .as(option.key() + "'s default passes its rule")
                    .isTrue();
            assertThat(option.tableOption().key()).isEqualTo(option.tableKey());
            assertThat(option.tableOption().defaultValue()).isEqualTo(option.defaultValue());
            assertThat(option.tableOption().description().toString()).isNotBlank();
        }
    }

    private static <T> boolean allowsItsDefault(SourceOption<T> option) {
        return option.allows(option.defaultValue());
    }
}
