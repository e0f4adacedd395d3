package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * {@code setMaxRecordsPerSecond}: the source reads at the limit over 10 s (a functional check with a wide band;
 * the precise figure belongs to the benchmarks), and a throttled reader still commits its offsets on
 * every checkpoint (Flink's rate-limited reader wrapper once dropped those callbacks).
 */
class ThrottleIT extends KafkaFlinkIT {

    private static StreamSplitKafkaSourceBuilder<String> source(String topic) {
        return StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics(topic)
                .setValueOnlyDeserializer(new SimpleStringSchema());
    }

    /** Appends when the record passed through the job, in epoch milliseconds. */
    static final class Stamp implements MapFunction<String, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String map(String value) {
            return value + "@" + System.currentTimeMillis();
        }
    }

    @Test
    void aThrottledSourceReadsEveryRecordAtTheLimitOverTenSeconds() throws Exception {
        KAFKA.broker().createTopic("throttled", 2);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "throttled", 2, values("t", 2_000));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamSplitKafkaSource<String> source = source("throttled")
                .setBounded(StoppingOffsets.latest())
                .setMaxRecordsPerSecond(200)
                .build();
        List<Long> passedAt = new ArrayList<>();
        List<String> values = new ArrayList<>();
        try (CloseableIterator<String> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "throttled")
                .map(new Stamp())
                .executeAndCollect("throttled")) {
            it.forEachRemaining(stamped -> {
                values.add(stamped.substring(0, stamped.indexOf('@')));
                passedAt.add(Long.parseLong(stamped.substring(stamped.indexOf('@') + 1)));
            });
        }

        assertThat(values).containsExactlyInAnyOrderElementsOf(values("t", 2_000));
        // the limiter banks no idle time, so there is no burst at the start: the whole 10 s count
        List<Long> sorted = passedAt.stream().sorted().toList();
        double perSecond = (sorted.size() - 1) * 1000.0 / (sorted.get(sorted.size() - 1) - sorted.get(0));
        assertThat(perSecond).as("records per second through the job").isBetween(160.0, 240.0);
        assertThat(source.maxRecordsPerSecond()).isEqualTo(200.0);
    }

    @Test
    void aThrottledReaderStillCommitsItsOffsetsOnCheckpoints() throws Exception {
        String topic = "throttled-commits";
        KAFKA.broker().createTopic(topic, 1);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), topic, 1, values("c", 100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        StreamSplitKafkaSource<String> source = source(topic)
                .setGroupId("throttled-group")
                .setMaxRecordsPerSecond(100)
                .build();
        try (CloseableIterator<String> results = env.fromSource(source, WatermarkStrategy.noWatermarks(), "commits")
                .executeAndCollect("commits")) {
            List<String> read = new ArrayList<>();
            while (read.size() < 100) {
                read.add(results.next());
            }
            assertThat(read).containsExactlyElementsOf(values("c", 100));
            await().atMost(60, TimeUnit.SECONDS)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> committed("throttled-group", new TopicPartition(topic, 0)) == 100L);
        }
    }

    @Test
    void aNegativeOrEndlessRateIsRefusedAtTheSetterAndZeroIsUnthrottled() {
        assertThatThrownBy(() -> source("x").setMaxRecordsPerSecond(-5))
                .isInstanceOf(InvalidKafkaSourceException.class)
                .hasMessageContaining("max-records-per-second is -5.0; it must be 0 (unthrottled) or a positive rate");
        assertThatThrownBy(() -> source("x").setMaxRecordsPerSecond(Double.POSITIVE_INFINITY))
                .isInstanceOf(InvalidKafkaSourceException.class);
        assertThat(source("x").setMaxRecordsPerSecond(0).build().maxRecordsPerSecond())
                .as("as the control command's max-records-per-second=0")
                .isZero();
    }
}
