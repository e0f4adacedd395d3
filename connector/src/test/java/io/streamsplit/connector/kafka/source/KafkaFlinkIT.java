package io.streamsplit.connector.kafka.source;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Base of the integration tests: a real in-JVM broker and a Flink MiniCluster (one TaskManager,
 * four slots), both started once per test class, plus the helpers those tests share.
 */
abstract class KafkaFlinkIT {

    @RegisterExtension
    @Order(1)
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @RegisterExtension
    @Order(2)
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    /** {@code prefix0 .. prefix(count-1)}. */
    static List<String> values(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }

    /** Runs a job reading {@code source} to its end and returns everything it emitted. */
    static List<String> collect(StreamSplitKafkaSource<String> source, int parallelism) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        List<String> out = new ArrayList<>();
        try (CloseableIterator<String> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "test").executeAndCollect("bounded read")) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /** The offset {@code group} committed for {@code tp}, or -1. */
    static long committed(String group, TopicPartition tp) throws Exception {
        try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get()
                    .get(tp);
            return offset == null ? -1 : offset.offset();
        }
    }
}
