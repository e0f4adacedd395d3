package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Each starting-offset mode against the real broker, read back through a MiniCluster job. */
class StartingOffsetsIT extends KafkaFlinkIT {

    private StreamSplitKafkaSourceBuilder<String> source(String topic) {
        return StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics(topic)
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    @Test
    void earliestReadsEverythingInTheTopic() throws Exception {
        KAFKA.broker().createTopic("start-earliest", 2);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "start-earliest", 2, values("e", 50));

        assertThat(collect(
                        source("start-earliest")
                                .setStartingOffsets(StartingOffsets.earliest())
                                .setBounded(StoppingOffsets.latest())
                                .build(),
                        2))
                .containsExactlyInAnyOrderElementsOf(values("e", 50));
    }

    @Test
    void committedOffsetsAreUsedAndPartitionsWithoutCommitFollowTheResetStrategy() throws Exception {
        KAFKA.broker().createTopic("start-committed", 2);
        KafkaTestRecords.write(
                KAFKA.bootstrapServers(), "start-committed", 2, values("c", 20)); // p0: c0,c2..; p1: c1,c3..
        try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
            admin.alterConsumerGroupOffsets(
                            "committed-group",
                            Map.of(new TopicPartition("start-committed", 0), new OffsetAndMetadata(7)))
                    .all()
                    .get();
        }

        List<String> read = collect(
                source("start-committed")
                        .setGroupId("committed-group")
                        .setStartingOffsets(StartingOffsets.committed(OffsetResetStrategy.EARLIEST))
                        .setBounded(StoppingOffsets.latest())
                        .build(),
                2);

        List<String> expected = new ArrayList<>(List.of("c14", "c16", "c18")); // p0 offsets 7..9
        values("c", 20).stream()
                .filter(v -> Integer.parseInt(v.substring(1)) % 2 == 1)
                .forEach(expected::add);
        assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void timestampStartsAtTheFirstRecordAtOrAfterIt() throws Exception {
        KAFKA.broker().createTopic("start-timestamp", 1);
        KafkaTestRecords.writeWithTimestamps(
                KAFKA.bootstrapServers(),
                "start-timestamp",
                0,
                List.of("t0", "t1", "t2", "t3"),
                List.of(1_000L, 2_000L, 3_000L, 4_000L));

        assertThat(collect(
                        source("start-timestamp")
                                .setStartingOffsets(StartingOffsets.timestamp(2_500))
                                .setBounded(StoppingOffsets.latest())
                                .build(),
                        1))
                .containsExactly("t2", "t3");
    }

    @Test
    void specificOffsetsWithFallbackForUnlistedPartitions() throws Exception {
        KAFKA.broker().createTopic("start-specific", 2);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "start-specific", 2, values("s", 10));

        List<String> read = collect(
                source("start-specific")
                        .setStartingOffsets(StartingOffsets.specific(
                                Map.of(new TopicPartition("start-specific", 0), 3L), StartingOffsets.latest()))
                        .setBounded(StoppingOffsets.latest())
                        .build(),
                2);

        assertThat(read).containsExactlyInAnyOrder("s6", "s8"); // p0 offsets 3, 4; p1 starts at its end
    }

    @Test
    void latestReadsOnlyNewRecordsAndCheckpointsCommitOffsetsToTheGroup() throws Exception {
        String topic = "start-latest";
        KAFKA.broker().createTopic(topic, 1);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), topic, 1, values("old", 10));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        StreamSplitKafkaSource<String> source = source(topic)
                .setGroupId("latest-group")
                .setStartingOffsets(StartingOffsets.latest())
                .build();
        try (CloseableIterator<String> results = env.fromSource(source, WatermarkStrategy.noWatermarks(), "latest")
                .executeAndCollect("latest")) {
            // a commit of offset 10 proves the split was assigned at the end of the log
            await().atMost(60, TimeUnit.SECONDS)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> committed("latest-group", new TopicPartition(topic, 0)) == 10L);
            KafkaTestRecords.write(KAFKA.bootstrapServers(), topic, 1, values("new", 5));
            List<String> read = new ArrayList<>();
            while (read.size() < 5) {
                read.add(results.next());
            }
            assertThat(read).containsExactlyElementsOf(values("new", 5));
            await().atMost(60, TimeUnit.SECONDS)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> committed("latest-group", new TopicPartition(topic, 0)) == 15L);
        }
    }
}
