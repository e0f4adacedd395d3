package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class StreamSplitKafkaSourceBuilderTest {

    /** A builder with everything a source needs: topics, servers, a deserializer. */
    static StreamSplitKafkaSourceBuilder<String> valid() {
        return StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers("localhost:9092")
                .setTopics("orders")
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    @Test
    void secondSubscriptionIsAClearErrorNamingTheFirst() {
        assertThatThrownBy(() -> valid().setTopicPattern(Pattern.compile("o.*")))
                .hasMessageContaining("exactly one of topics, topic pattern or partitions")
                .hasMessageContaining("setTopics([orders]) was already called");
        assertThatThrownBy(() -> StreamSplitKafkaSource.<String>builder()
                        .setTopicPattern(Pattern.compile("x"))
                        .setPartitions(Set.of(new TopicPartition("x", 0))))
                .hasMessageContaining("setTopicPattern(x)");
    }

    /**
     * Without starting offsets, a source with a consumer group continues where the group stopped (its
     * committed offsets, partitions without a commit from the reset strategy), as a Kafka consumer does:
     * a job started again without its state does not read its topics from the start. Without a group it
     * reads from the earliest offsets.
     */
    @Test
    void aGroupIdMakesTheCommittedOffsetsTheDefaultStart() {
        assertThat(valid().build().startingOffsets().kind()).isEqualTo(StartingOffsets.Kind.EARLIEST);

        StartingOffsets withGroup = valid().setGroupId("orders-app").build().startingOffsets();
        assertThat(withGroup.kind()).isEqualTo(StartingOffsets.Kind.COMMITTED);
        assertThat(withGroup.missingCommitStrategy()).isEqualTo(OffsetResetStrategy.EARLIEST);
        assertThat(valid().setGroupId("orders-app")
                        .setOffsetResetStrategy(OffsetResetStrategy.LATEST)
                        .build()
                        .startingOffsets()
                        .missingCommitStrategy())
                .as("a partition without a commit follows the reset strategy")
                .isEqualTo(OffsetResetStrategy.LATEST);
        assertThat(valid().setGroupId("orders-app")
                        .setStartingOffsets(StartingOffsets.earliest())
                        .build()
                        .startingOffsets()
                        .kind())
                .as("set explicitly, it wins")
                .isEqualTo(StartingOffsets.Kind.EARLIEST);
    }

    @Test
    void missingPiecesNameWhatToCall() {
        assertThatThrownBy(() -> StreamSplitKafkaSource.<String>builder()
                        .setBootstrapServers("b:1")
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build())
                .hasMessageContaining("No topics");
        assertThatThrownBy(() -> StreamSplitKafkaSource.<String>builder()
                        .setBootstrapServers("b:1")
                        .setTopics("t")
                        .build())
                .hasMessageContaining("No deserializer");
        assertThatThrownBy(() -> StreamSplitKafkaSource.<String>builder()
                        .setTopics("t")
                        .setValueOnlyDeserializer(new SimpleStringSchema())
                        .build())
                .hasMessageContaining("setBootstrapServers");
        assertThatThrownBy(() -> valid().setStartingOffsets(StartingOffsets.committed(OffsetResetStrategy.EARLIEST))
                        .build())
                .hasMessageContaining("no group id is set");
    }

    @Test
    void conflictingOrUnsupportedSettingsAreRejected() {
        assertThatThrownBy(() -> valid().setBounded(StoppingOffsets.latest())
                        .setPartitionDiscoveryInterval(Duration.ofSeconds(5))
                        .build())
                .hasMessageContaining("bounded source")
                .hasMessageContaining("PT5S");
        assertThatThrownBy(() -> valid().setProperty("enable.auto.commit", "true"))
                .hasMessageContaining("committed when a Flink checkpoint completes");
        assertThatThrownBy(() -> valid().setProperty(
                                "value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer"))
                .hasMessageContaining("raw bytes");
        assertThatThrownBy(() -> valid().setProperty("auto.offset.reset", "latest")
                        .setOffsetResetStrategy(OffsetResetStrategy.EARLIEST)
                        .build())
                .hasMessageContaining("conflicts");
        assertThatThrownBy(() -> valid().setPartitionDiscoveryInterval(Duration.ofSeconds(-1)))
                .hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> OffsetResetStrategy.parse("latests"))
                .hasMessageContaining("'latests'")
                .hasMessageContaining("earliest, latest, fail");
        assertThatThrownBy(() -> BadRecordPolicy.parse("drop")).hasMessageContaining("fail, skip, dead-letter");
    }

    @Test
    void consumerSettingsEnforceWhatTheReaderNeeds() {
        StreamSplitKafkaSource<String> source = valid().setGroupId("g")
                .setProperty("fetch.min.bytes", "1024")
                .setProperty("auto.offset.reset", "none")
                .build();
        assertThat(source.consumerProperties())
                .containsEntry("enable.auto.commit", "false")
                .containsEntry("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer")
                .containsEntry("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer")
                .containsEntry("auto.offset.reset", "none")
                .containsEntry("isolation.level", "read_committed")
                .containsEntry("allow.auto.create.topics", "false")
                .containsEntry("fetch.min.bytes", "1024")
                .doesNotContainKey("max.partition.fetch.bytes") // each reader sizes it for its partitions
                .containsEntry("max.poll.records", "2000")
                .containsEntry("group.id", "g");
        // the larger fetch defaults yield to what the user sets
        assertThat(valid().setProperty("max.poll.records", "100")
                        .setProperty("max.partition.fetch.bytes", "1048576")
                        .build()
                        .consumerProperties())
                .containsEntry("max.poll.records", "100")
                .containsEntry("max.partition.fetch.bytes", "1048576");
        assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(valid().setBounded(StoppingOffsets.latest()).build().getBoundedness())
                .isEqualTo(Boundedness.BOUNDED);
    }

    @Test
    void clientRackIsARackIdOrAnEnvironmentVariableOfTheTaskManager() {
        assertThat(ClientRack.parse(" eu-west-1a ").get()).isEqualTo("eu-west-1a");
        // read where the reader runs: here the test's JVM, which has a PATH
        assertThat(ClientRack.parse("env:PATH").get()).isEqualTo(System.getenv("PATH"));
        assertThat(ClientRack.parse("env:STREAMSPLIT_NO_SUCH_VARIABLE").get()).isNull();
        assertThat(valid().setClientRack("env:TM_ZONE").build()).isNotNull();

        assertThatThrownBy(() -> valid().setClientRack(" "))
                .isInstanceOfSatisfying(
                        InvalidKafkaSourceException.class,
                        e -> assertThat(e.setting()).isEqualTo(InvalidKafkaSourceException.Setting.CLIENT_RACK));
        assertThatThrownBy(() -> valid().setClientRack("env:9-zone"))
                .isInstanceOfSatisfying(InvalidKafkaSourceException.class, e -> {
                    assertThat(e.setting()).isEqualTo(InvalidKafkaSourceException.Setting.CLIENT_RACK);
                    assertThat(e.problem(s -> "client-rack")).contains("'9-zone' is not an environment variable");
                    assertThat(e.action(s -> "client-rack")).contains("env:NAME");
                });
    }

    @Test
    void sourceWithLambdaDeserializerSurvivesJavaSerializationAsFlinkShipsIt() throws Exception {
        StreamSplitKafkaSource<Integer> source = StreamSplitKafkaSource.<Integer>builder()
                .setBootstrapServers("localhost:9092")
                .setTopics("numbers")
                .setDeserializer(record -> record.value().length, Integer.class)
                .build();
        StreamSplitKafkaSource<Integer> copy = InstantiationUtil.clone(source);
        assertThat(copy.getProducedType()).isEqualTo(source.getProducedType());
        assertThat(copy.name()).isEqualTo("topics [numbers]");
    }
}
