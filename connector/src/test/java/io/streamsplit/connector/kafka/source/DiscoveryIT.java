package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.collect.ClientAndIterator;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Partitions and topics that appear or disappear while a job runs. */
class DiscoveryIT extends KafkaFlinkIT {

    private static ClientAndIterator<String> start(StreamSplitKafkaSource<String> source) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        DataStream<String> stream = env.fromSource(source, WatermarkStrategy.noWatermarks(), "discovery");
        var iterator = stream.collectAsync();
        JobClient client = env.executeAsync("discovery");
        return new ClientAndIterator<>(client, iterator);
    }

    private static List<String> take(ClientAndIterator<String> job, int count) {
        List<String> read = new ArrayList<>();
        while (read.size() < count) {
            read.add(job.iterator.next());
        }
        return read;
    }

    @Test
    void partitionAddedWhileRunningIsReadFromItsFirstRecord() throws Exception {
        KAFKA.broker().createTopic("grows", 1);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "grows", 1, values("before", 10));
        ClientAndIterator<String> job = start(StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics("grows")
                .setGroupId("grows-group")
                .setStartingOffsets(StartingOffsets.latest()) // new jobs skip history, new partitions must not
                .setPartitionDiscoveryInterval(Duration.ofMillis(200))
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .build());
        try {
            // the first commit shows the initial discovery is done: partition 1 will be a new partition
            await().atMost(60, TimeUnit.SECONDS)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> committed("grows-group", new TopicPartition("grows", 0)) == 10L);
            KAFKA.broker().addPartitions("grows", 2);
            try (var producer = KafkaTestRecords.producer(KAFKA.bootstrapServers())) {
                for (String value : values("added", 10)) {
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                            "grows", 1, null, value.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                }
            }
            assertThat(take(job, 10)).containsExactlyElementsOf(values("added", 10));
        } finally {
            job.client.cancel().get();
        }
    }

    @Test
    void deletedTopicIsReleasedWhileTheOtherTopicsKeepFlowing() throws Exception {
        KAFKA.broker().createTopic("del-keep", 1);
        KAFKA.broker().createTopic("del-gone", 1);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "del-keep", 1, values("k", 5));
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "del-gone", 1, values("g", 5));
        ClientAndIterator<String> job = start(StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopicPattern(Pattern.compile("del-.*"))
                .setPartitionDiscoveryInterval(Duration.ofMillis(200))
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .build());
        try {
            assertThat(take(job, 10))
                    .containsExactlyInAnyOrderElementsOf(
                            java.util.stream.Stream.concat(values("k", 5).stream(), values("g", 5).stream())
                                    .toList());
            KAFKA.broker().deleteTopic("del-gone");
            KafkaTestRecords.write(KAFKA.bootstrapServers(), "del-keep", 1, values("after", 5));

            assertThat(take(job, 5)).containsExactlyElementsOf(values("after", 5));
            assertThat(job.client.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        } finally {
            job.client.cancel().get();
        }
    }
}
