package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class BoundedReadIT extends KafkaFlinkIT {

    StreamSplitKafkaSourceBuilder<String> source(String topic) {
        return StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics(topic)
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    @Test
    void boundedSourceReadsExactlyEveryRecordOfEveryPartitionAndFinishes() throws Exception {
        KAFKA.broker().createTopic("bounded", 3);
        List<String> written = values("r", 3000);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "bounded", 3, written);

        List<String> read =
                collect(source("bounded").setBounded(StoppingOffsets.latest()).build(), 2);

        assertThat(read).containsExactlyInAnyOrderElementsOf(written);
    }

    @Test
    void boundedSourceWithMoreReadersThanPartitionsFinishesOnIdleReaders() throws Exception {
        KAFKA.broker().createTopic("idle-readers", 1);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "idle-readers", 1, values("x", 10));

        assertThat(collect(
                        source("idle-readers")
                                .setBounded(StoppingOffsets.latest())
                                .build(),
                        4))
                .hasSize(10);
    }

    @Test
    void specificStoppingOffsetsCutEachPartitionExactly() throws Exception {
        KAFKA.broker().createTopic("stop-specific", 2);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "stop-specific", 2, values("s", 20));

        List<String> read = collect(
                source("stop-specific")
                        .setBounded(StoppingOffsets.specific(Map.of(
                                new TopicPartition("stop-specific", 0),
                                3L,
                                new TopicPartition("stop-specific", 1),
                                0L)))
                        .build(),
                2);

        // partition 0 holds s0, s2, s4, ...; offsets 0..2 are s0, s2, s4. Partition 1 is cut at 0.
        assertThat(read).containsExactlyInAnyOrder("s0", "s2", "s4");
    }
}
