package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.util.RestartStrategyUtils;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A task fails mid-stream after a checkpoint completed; the job restarts from that checkpoint and
 * the keyed state counts every record exactly once: a record replayed without being covered by
 * the restored offsets would push a count above the number of records written for its key.
 */
class FailureRecoveryIT extends KafkaFlinkIT {

    static final AtomicBoolean FAILED = new AtomicBoolean();

    private static final String TOPIC = "recovery";
    private static final int PARTITIONS = 3;
    private static final int KEYS = 10;
    private static final int FIRST_HALF = 6_000;
    private static final int TOTAL = 12_000;

    @Test
    void injectedFailureRecoversFromCheckpointWithEveryRecordCountedExactlyOnceInKeyedState() throws Exception {
        KAFKA.broker().createTopic(TOPIC, PARTITIONS);
        write(0, FIRST_HALF);
        Map<TopicPartition, Long> stops = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            stops.put(new TopicPartition(TOPIC, p), (long) TOTAL / PARTITIONS);
        }
        StreamSplitKafkaSource<String> source = StreamSplitKafkaSource.<String>builder()
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics(TOPIC)
                .setGroupId("recovery-group")
                .setBounded(StoppingOffsets.specific(stops))
                .setDeserializer(record -> new String(record.value(), StandardCharsets.UTF_8), String.class)
                .build();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        RestartStrategyUtils.configureFixedDelayRestartStrategy(env, 3, Duration.ofMillis(100));
        Map<String, Long> finalCounts = new HashMap<>();
        try (CloseableIterator<Tuple2<String, Long>> results = env.fromSource(
                        source, WatermarkStrategy.noWatermarks(), "recovery")
                .map(new FailOnceAfterCheckpoint(FIRST_HALF / 4))
                .keyBy(value -> "k" + Integer.parseInt(value.substring(1)) % KEYS)
                .process(new CountPerKey())
                .executeAndCollect("recovery")) {
            await().atMost(60, TimeUnit.SECONDS).untilTrue(FAILED);
            write(FIRST_HALF, TOTAL); // the rest arrives after the failure, read by the restarted job
            results.forEachRemaining(count -> finalCounts.merge(count.f0, count.f1, Math::max));
        }

        assertThat(FAILED).isTrue();
        assertThat(finalCounts).hasSize(KEYS);
        finalCounts.forEach((key, count) ->
                assertThat(count).as("records counted for %s", key).isEqualTo((long) TOTAL / KEYS));
    }

    private static void write(int from, int to) {
        try (KafkaProducer<byte[], byte[]> producer = KafkaTestRecords.producer(KAFKA.bootstrapServers())) {
            for (int i = from; i < to; i++) {
                producer.send(
                        new ProducerRecord<>(TOPIC, i % PARTITIONS, null, ("v" + i).getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    /**
     * Fails the task once, in the first attempt, when a checkpoint completes after records went
     * through: the restart must resume from that checkpoint. Failing in the checkpoint notification
     * needs no further input, so it cannot wait forever on a source that already read everything.
     */
    static final class FailOnceAfterCheckpoint extends RichMapFunction<String, String> implements CheckpointListener {
        private final int recordsBeforeFailure;
        private transient int seen;

        FailOnceAfterCheckpoint(int recordsBeforeFailure) {
            this.recordsBeforeFailure = recordsBeforeFailure;
        }

        @Override
        public void open(OpenContext openContext) {
            seen = 0;
        }

        @Override
        public String map(String value) {
            seen++;
            return value;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            if (seen >= recordsBeforeFailure
                    && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0
                    && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException(
                        "injected failure after checkpoint " + checkpointId + " and " + seen + " records");
            }
        }
    }

    static final class CountPerKey extends KeyedProcessFunction<String, String, Tuple2<String, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext openContext) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(String value, Context ctx, Collector<Tuple2<String, Long>> out) throws Exception {
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }
    }
}
