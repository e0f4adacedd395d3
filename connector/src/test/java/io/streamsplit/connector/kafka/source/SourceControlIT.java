package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.connector.kafka.source.control.SourceControl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code setControlTopic}: a running source pauses, resumes and changes its rate on a record in its
 * control topic, on a real broker and MiniCluster, and loses or repeats nothing doing so.
 */
class SourceControlIT extends KafkaFlinkIT {

    private final ExecutorService drain = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopDraining() {
        drain.shutdownNow();
    }

    private static void control(String topic, String source, SourceControl control) {
        try (KafkaProducer<byte[], byte[]> producer = KafkaTestRecords.producer(KAFKA.bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, source.getBytes(), control.encode()));
            producer.flush();
        }
    }

    private static void createControlTopic(String topic) {
        KAFKA.broker().createTopic(topic, 1, Map.of("cleanup.policy", "compact"));
    }

    /** Runs the job and copies what it emits into {@code into} until the job ends. */
    private Future<?> run(StreamSplitKafkaSource<String> source, int parallelism, List<String> into) {
        return drain.submit(() -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(parallelism);
            env.enableCheckpointing(200);
            try (CloseableIterator<String> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "controlled")
                    .executeAndCollect("controlled")) {
                it.forEachRemaining(into::add);
            }
            return null;
        });
    }

    @Test
    void aSourcePausedBeforeItStartsReadsNothingUntilResumedThenEveryRecordOnce() throws Exception {
        createControlTopic("ops-a");
        KAFKA.broker().createTopic("paused-in", 2);
        control("ops-a", "orders", SourceControl.RUNNING.withPaused(true));
        control("ops-a", "other-source", SourceControl.RUNNING); // another source's record changes nothing
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "paused-in", 2, values("p", 200));
        StreamSplitKafkaSource<String> source = StreamSplitKafkaSource.<String>builder()
                .setName("orders")
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics("paused-in")
                .setGroupId("paused-group")
                .setControlTopic("ops-a")
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .build();
        List<String> read = new CopyOnWriteArrayList<>();
        Future<?> job = run(source, 2, read);

        // paused: checkpoints go on and commit the (unchanged) starting offsets, no record is read
        await().atMost(60, TimeUnit.SECONDS)
                .until(() -> committed("paused-group", new TopicPartition("paused-in", 0)) == 0L);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(read::isEmpty);

        control("ops-a", "orders", SourceControl.RUNNING);
        await().atMost(30, TimeUnit.SECONDS).until(() -> read.size() >= 200);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "paused-in", 2, values("q", 20));
        await().atMost(30, TimeUnit.SECONDS).until(() -> read.size() >= 220);

        assertThat(read).hasSize(220).containsExactlyInAnyOrderElementsOf(concat(values("p", 200), values("q", 20)));
        assertThat(job).isNotDone();
    }

    @Test
    void aRateChangedWhileRunningAppliesWithoutARestart() throws Exception {
        createControlTopic("ops-b");
        KAFKA.broker().createTopic("rate-in", 1);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "rate-in", 1, values("r", 300));
        StreamSplitKafkaSource<String> source = StreamSplitKafkaSource.<String>builder()
                .setName("slow")
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics("rate-in")
                .setBounded(StoppingOffsets.latest())
                .setMaxRecordsPerSecond(10) // 30 s for all 300
                .setControlTopic("ops-b")
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .build();
        List<String> read = new CopyOnWriteArrayList<>();
        Future<?> job = run(source, 1, read);
        await().atMost(60, TimeUnit.SECONDS).until(() -> read.size() >= 5);
        assertThat(read.size()).as("throttled to 10/s").isLessThan(100);

        control("ops-b", "slow", SourceControl.RUNNING.withMaxRecordsPerSecond(0.0));

        job.get(10, TimeUnit.SECONDS); // unthrottled, the rest takes well under a second
        assertThat(read).containsExactlyElementsOf(values("r", 300));
    }

    @Test
    void aControlTopicThatDoesNotExistLeavesTheSourceReading() throws Exception {
        KAFKA.broker().createTopic("uncontrolled-in", 1);
        KafkaTestRecords.write(KAFKA.bootstrapServers(), "uncontrolled-in", 1, values("u", 50));
        StreamSplitKafkaSource<String> source = StreamSplitKafkaSource.<String>builder()
                .setName("uncontrolled")
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics("uncontrolled-in")
                .setBounded(StoppingOffsets.latest())
                .setControlTopic("no-such-control-topic")
                .setValueOnlyDeserializer(new SimpleStringSchema())
                .build();
        List<String> read = new CopyOnWriteArrayList<>();

        run(source, 1, read).get(60, TimeUnit.SECONDS);

        assertThat(read).containsExactlyElementsOf(values("u", 50));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
