package io.streamsplit.connector.kafka.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.List;
import java.util.Properties;
import java.util.stream.IntStream;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A reader sizes its fetch for the partitions it starts with, unless the user set
 * {@code max.partition.fetch.bytes}. No broker is needed: a consumer connects on its first poll.
 */
class KafkaPartitionSplitReaderFetchSizeTest {

    @Test
    void partitionShareOf8MegabytesStaysBetweenKafkasDefaultAnd8Megabytes() {
        assertThat(KafkaSourceReader.partitionFetchBytes(0)).isEqualTo(8 << 20);
        assertThat(KafkaSourceReader.partitionFetchBytes(1)).isEqualTo(8 << 20);
        assertThat(KafkaSourceReader.partitionFetchBytes(2)).isEqualTo(4 << 20);
        assertThat(KafkaSourceReader.partitionFetchBytes(3)).isEqualTo((8 << 20) / 3);
        assertThat(KafkaSourceReader.partitionFetchBytes(4)).isEqualTo(2 << 20);
        assertThat(KafkaSourceReader.partitionFetchBytes(8)).isEqualTo(1 << 20);
        assertThat(KafkaSourceReader.partitionFetchBytes(16)).isEqualTo(1 << 20);
        assertThat(KafkaSourceReader.partitionFetchBytes(32)).isEqualTo(1 << 20);
        assertThat(KafkaSourceReader.partitionFetchBytes(100_000)).isEqualTo(1 << 20);
    }

    @Test
    void consumerIsSizedForTheFirstSplitsAndKeepsThatSizeWhenMoreArrive() throws Exception {
        KafkaPartitionSplitReader reader = reader(new Properties());
        try {
            assertThat(reader.consumerSettings())
                    .as("no consumer before the first splits")
                    .isNull();
            reader.handleSplitsChanges(new SplitsAddition<>(splits(0, 2)));
            assertThat(reader.consumerSettings())
                    .containsEntry(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(4 << 20))
                    .containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
            // partitions discovered later share the consumer, and its size
            reader.handleSplitsChanges(new SplitsAddition<>(splits(2, 48)));
            assertThat(reader.consumerSettings())
                    .containsEntry(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(4 << 20));
        } finally {
            reader.close();
        }
    }

    @Test
    void userSetPartitionFetchSizeWins() throws Exception {
        Properties user = new Properties();
        user.setProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "65536");
        KafkaPartitionSplitReader reader = reader(user);
        try {
            reader.handleSplitsChanges(new SplitsAddition<>(splits(0, 1)));
            assertThat(reader.consumerSettings())
                    .containsEntry(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "65536");
        } finally {
            reader.close();
        }
    }

    @Test
    void readerThatNeverGotSplitsWakesAndClosesWithoutAConsumer() throws Exception {
        KafkaPartitionSplitReader reader = reader(new Properties());
        reader.wakeUp();
        assertThat(reader.fetch().nextSplit()).isNull();
        reader.close();
        assertThat(reader.consumerSettings()).isNull();
    }

    private static KafkaPartitionSplitReader reader(Properties user) {
        Properties properties = new Properties();
        properties.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        properties.setProperty(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.setProperty(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        properties.putAll(user);
        return new KafkaPartitionSplitReader(
                "orders",
                properties,
                new KafkaSourceReaderMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup()),
                removed -> {});
    }

    private static List<KafkaPartitionSplit> splits(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(p -> new KafkaPartitionSplit(new TopicPartition("orders", p), 0))
                .toList();
    }
}
