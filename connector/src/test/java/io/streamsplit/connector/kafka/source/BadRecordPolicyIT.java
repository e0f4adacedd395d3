package io.streamsplit.connector.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** 20 records, 3 of them not numbers, read under each bad-record policy. */
class BadRecordPolicyIT extends KafkaFlinkIT {

    private static final String TOPIC = "numbers";
    private static final List<Integer> BAD_INDEXES = List.of(4, 11, 17);

    @BeforeAll
    static void writeNumbersWithThreeBadRecords() {
        KAFKA.broker().createTopic(TOPIC, 1);
        try (var producer = KafkaTestRecords.producer(KAFKA.bootstrapServers())) {
            for (int i = 0; i < 20; i++) {
                String value = BAD_INDEXES.contains(i) ? "not-a-number-" + i : String.valueOf(i);
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                        TOPIC, 0, ("key" + i).getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
                record.headers().add("trace", ("t" + i).getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
        }
    }

    private static StreamSplitKafkaSource<Integer> source(BadRecordPolicy policy) {
        return StreamSplitKafkaSource.<Integer>builder()
                .setName("numbers-" + policy)
                .setBootstrapServers(KAFKA.bootstrapServers())
                .setTopics(TOPIC)
                .setBounded(StoppingOffsets.latest())
                .setDeserializer(
                        record -> Integer.parseInt(new String(record.value(), StandardCharsets.UTF_8)), Integer.class)
                .setBadRecordPolicy(policy)
                .build();
    }

    private static <T> List<T> drain(CloseableIterator<T> iterator) throws Exception {
        List<T> out = new ArrayList<>();
        try (iterator) {
            iterator.forEachRemaining(out::add);
        }
        return out;
    }

    private static List<Integer> good() {
        List<Integer> good = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (!BAD_INDEXES.contains(i)) {
                good.add(i);
            }
        }
        return good;
    }

    @Test
    void failPolicyFailsTheJobNamingTopicPartitionAndOffset() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        assertThatThrownBy(() ->
                        drain(env.fromSource(source(BadRecordPolicy.FAIL), WatermarkStrategy.noWatermarks(), "fail")
                                .executeAndCollect("fail")))
                .hasStackTraceContaining("topic numbers, partition 0, offset 4")
                .hasStackTraceContaining("set the bad-record policy to skip or dead-letter");
    }

    @Test
    void skipPolicyEmitsExactlyTheGoodRecords() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        assertThat(drain(env.fromSource(source(BadRecordPolicy.SKIP), WatermarkStrategy.noWatermarks(), "skip")
                        .executeAndCollect("skip")))
                .containsExactlyElementsOf(good());
    }

    @Test
    void deadLetterPolicyRoutesEachBadRecordOnceWithRawBytesAndErrorHeaders() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        KafkaSourceStream<Integer> stream = KafkaSourceStream.of(
                env, source(BadRecordPolicy.DEAD_LETTER), WatermarkStrategy.noWatermarks(), "dead-letter");
        CloseableIterator<Integer> records = stream.records().collectAsync();
        CloseableIterator<DeadLetterRecord> deadLetters = stream.deadLetters().collectAsync();
        env.execute("dead-letter");

        assertThat(drain(records)).containsExactlyElementsOf(good());
        List<DeadLetterRecord> dead = drain(deadLetters);
        assertThat(dead).extracting(d -> d.offset).containsExactly(4L, 11L, 17L);
        DeadLetterRecord first = dead.get(0);
        assertThat(new String(first.value, StandardCharsets.UTF_8)).isEqualTo("not-a-number-4");
        assertThat(new String(first.key, StandardCharsets.UTF_8)).isEqualTo("key4");
        assertThat(first.exceptionClass).isEqualTo(NumberFormatException.class.getName());
        var producerRecord = first.toProducerRecord("numbers.dlq");
        assertThat(producerRecord.topic()).isEqualTo("numbers.dlq");
        assertThat(new String(producerRecord.headers().lastHeader("trace").value(), StandardCharsets.UTF_8))
                .isEqualTo("t4");
        assertThat(new String(
                        producerRecord
                                .headers()
                                .lastHeader(DeadLetterRecord.HEADER_OFFSET)
                                .value(),
                        StandardCharsets.UTF_8))
                .isEqualTo("4");
        assertThat(new String(
                        producerRecord
                                .headers()
                                .lastHeader(DeadLetterRecord.HEADER_TOPIC)
                                .value(),
                        StandardCharsets.UTF_8))
                .isEqualTo(TOPIC);
        assertThat(new String(
                        producerRecord
                                .headers()
                                .lastHeader(DeadLetterRecord.HEADER_EXCEPTION_MESSAGE)
                                .value(),
                        StandardCharsets.UTF_8))
                .contains("not-a-number-4");
    }

    @Test
    void deadLetterPolicyWithoutADeadLetterStreamFailsWithAHint() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        assertThatThrownBy(() -> drain(
                        env.fromSource(source(BadRecordPolicy.DEAD_LETTER), WatermarkStrategy.noWatermarks(), "no-dlq")
                                .executeAndCollect("no-dlq")))
                .hasStackTraceContaining("KafkaSourceStream.of");
    }
}
