package io.streamsplit.connector.kafka.source.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.types.Either;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The bad-record policy covers the record's deserializer / emitter only: an exception thrown by an
 * operator chained after the source fails the task (the record is read again after recovery)
 * instead of dead-lettering or skipping a good record.
 */
class KafkaSourceRecordEmitterTest {

    private static final ConsumerRecord<byte[], byte[]> RECORD =
            new ConsumerRecord<>("orders", 0, 41, null, "good".getBytes(StandardCharsets.UTF_8));

    private final KafkaPartitionSplitState split =
            new KafkaPartitionSplitState(new KafkaPartitionSplit(new TopicPartition("orders", 0), 41));
    private final KafkaSourceReaderMetrics metrics =
            new KafkaSourceReaderMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup());

    /** The output of a chained operator that fails on every element except dead letters. */
    private static final class FailingOutput<T> extends CollectingOutput<T> {
        FailingOutput() {
            super(new ArrayList<>());
        }

        @Override
        public void collect(T element, long timestamp) {
            if (element instanceof Either<?, ?> either && either.isLeft()) {
                super.collect(element, timestamp);
                return;
            }
            throw new IllegalStateException("the operator after the source failed");
        }
    }

    /** An emitter of {@code user} with the dead-letter policy, as a source with a dead-letter topic has. */
    private KafkaSourceRecordEmitter<String, Either<DeadLetterRecord, String>> deadLettering(
            KafkaRecordEmitter<String> user) {
        return new KafkaSourceRecordEmitter<>(
                "orders",
                user,
                ElementMapping.withDeadLetters(),
                BadRecordPolicy.DEAD_LETTER,
                metrics,
                new SimpleCounter(),
                null);
    }

    private static String value(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }

    @Test
    void downstreamFailureFailsTheTaskInsteadOfDeadLetteringTheRecord() {
        KafkaSourceRecordEmitter<String, Either<DeadLetterRecord, String>> emitter =
                deadLettering((record, out) -> out.collect(value(record)));
        FailingOutput<Either<DeadLetterRecord, String>> output = new FailingOutput<>();

        assertThatThrownBy(() -> emitter.emitRecord(KafkaRecordRun.of(RECORD), output, split))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the operator after the source failed");
        assertThat(output.collected).as("no dead letter for a good record").isEmpty();
        assertThat(split.currentOffset())
                .as("the record is read again after recovery")
                .isEqualTo(41);
    }

    @Test
    void downstreamFailureSwallowedByTheUserEmitterStillFailsTheTask() {
        KafkaRecordEmitter<String> swallowing = (record, out) -> {
            try {
                out.collect(value(record));
            } catch (RuntimeException ignored) {
                // a user emitter that catches everything must not hide a downstream failure
            }
        };
        KafkaSourceRecordEmitter<String, String> emitter = new KafkaSourceRecordEmitter<>(
                "orders",
                swallowing,
                ElementMapping.elementsOnly(),
                BadRecordPolicy.SKIP,
                metrics,
                new SimpleCounter(),
                null);

        assertThatThrownBy(() -> emitter.emitRecord(KafkaRecordRun.of(RECORD), new FailingOutput<>(), split))
                .hasMessage("the operator after the source failed");
        assertThat(split.currentOffset()).isEqualTo(41);
    }

    @Test
    void emitterFailureIsStillABadRecord() throws Exception {
        KafkaSourceRecordEmitter<String, Either<DeadLetterRecord, String>> emitter = deadLettering((record, out) -> {
            throw new IllegalArgumentException("not an order");
        });
        FailingOutput<Either<DeadLetterRecord, String>> output = new FailingOutput<>();

        emitter.emitRecord(KafkaRecordRun.of(RECORD), output, split);

        assertThat(output.collected).hasSize(1);
        assertThat(output.collected.get(0).left().exceptionMessage).isEqualTo("not an order");
        assertThat(split.currentOffset()).isEqualTo(42);
    }

    @Test
    void anUnavailableSchemaRegistryFailsTheTaskInsteadOfDeadLetteringTheRecord() {
        KafkaSourceRecordEmitter<String, Either<DeadLetterRecord, String>> emitter = deadLettering((record, out) -> {
            // as a format wraps it: the cause chain carries it
            throw new IllegalStateException(
                    "cannot read", new KafkaRecordDeserializer.UnavailableException("registry does not answer", null));
        });
        FailingOutput<Either<DeadLetterRecord, String>> output = new FailingOutput<>();

        assertThatThrownBy(() -> emitter.emitRecord(KafkaRecordRun.of(RECORD), output, split))
                .hasMessage("cannot read")
                .hasCauseInstanceOf(KafkaRecordDeserializer.UnavailableException.class);
        assertThat(output.collected)
                .as("no dead letter: the record may be fine")
                .isEmpty();
        assertThat(split.currentOffset())
                .as("the record is read again after recovery")
                .isEqualTo(41);
    }

    @Test
    void aRunEmitsEveryRecordAppliesThePolicyPerRecordAndCountsEachRecordIn() throws Exception {
        SimpleCounter recordsIn = new SimpleCounter();
        KafkaSourceRecordEmitter<String, String> emitter = new KafkaSourceRecordEmitter<>(
                "orders",
                (record, out) -> {
                    if (value(record).equals("bad")) {
                        throw new IllegalArgumentException("not an order");
                    }
                    out.collect(value(record));
                },
                ElementMapping.elementsOnly(),
                BadRecordPolicy.SKIP,
                metrics,
                recordsIn,
                null);
        List<String> collected = new ArrayList<>();
        KafkaPartitionRecords fetch = fetchOf(List.of(record(41, "a"), record(42, "bad"), record(43, "c")));
        fetch.nextSplit();

        emitter.emitRecord(fetch.nextRecordFromSplit(), new CollectingOutput<>(collected), split);

        assertThat(collected).containsExactly("a", "c");
        assertThat(split.currentOffset()).as("past the whole run").isEqualTo(44);
        assertThat(recordsIn.getCount())
                .as("Flink counts the run once; the emitter adds the rest")
                .isEqualTo(2);
        assertThat(fetch.nextRecordFromSplit()).as("all three were one run").isNull();
    }

    @Test
    void aDownstreamFailureInsideARunLeavesTheOffsetAtTheFailedRecord() {
        KafkaSourceRecordEmitter<String, String> emitter = new KafkaSourceRecordEmitter<>(
                "orders",
                (record, out) -> out.collect(value(record)),
                ElementMapping.elementsOnly(),
                BadRecordPolicy.SKIP,
                metrics,
                new SimpleCounter(),
                null);
        KafkaPartitionRecords fetch = fetchOf(List.of(record(41, "a"), record(42, "b"), record(43, "c")));
        fetch.nextSplit();
        List<String> collected = new ArrayList<>();
        SourceOutput<String> failingOnB = new CollectingOutput<>(collected) {
            @Override
            public void collect(String element, long timestamp) {
                if (element.equals("b")) {
                    throw new IllegalStateException("the operator after the source failed");
                }
                super.collect(element, timestamp);
            }
        };

        assertThatThrownBy(() -> emitter.emitRecord(fetch.nextRecordFromSplit(), failingOnB, split))
                .hasMessage("the operator after the source failed");
        assertThat(collected).containsExactly("a");
        assertThat(split.currentOffset())
                .as("b is read again after recovery, a is not")
                .isEqualTo(42);
    }

    @Test
    void runsAreCutByRecordCountByBytesAndByTheSplitsStoppingLimit() {
        List<ConsumerRecord<byte[], byte[]>> small = new ArrayList<>();
        for (int i = 0; i < KafkaRecordRun.MAX_RECORDS + 10; i++) {
            small.add(record(i, "x"));
        }
        KafkaPartitionRecords fetch = fetchOf(small);
        fetch.nextSplit();
        assertThat(fetch.nextRecordFromSplit().size()).isEqualTo(KafkaRecordRun.MAX_RECORDS);
        assertThat(fetch.nextRecordFromSplit().size()).isEqualTo(10);
        assertThat(fetch.nextRecordFromSplit()).isNull();

        String kilobyte = "k".repeat(1024);
        List<ConsumerRecord<byte[], byte[]>> large = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            large.add(new ConsumerRecord<>(
                    "orders",
                    0,
                    i,
                    0L,
                    TimestampType.CREATE_TIME,
                    0,
                    1024,
                    null,
                    kilobyte.getBytes(StandardCharsets.UTF_8),
                    new RecordHeaders(),
                    Optional.empty()));
        }
        KafkaPartitionRecords bytes = new KafkaPartitionRecords(new HashSet<>());
        bytes.add("orders-0", large, 35); // records from 35 on are at or past the stopping offset
        bytes.nextSplit();
        assertThat(bytes.nextRecordFromSplit().size()).as("32 KB of values").isEqualTo(32);
        assertThat(bytes.nextRecordFromSplit().size()).as("up to the limit").isEqualTo(3);
        assertThat(bytes.nextRecordFromSplit()).isNull();
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String value) {
        return new ConsumerRecord<>("orders", 0, offset, null, value.getBytes(StandardCharsets.UTF_8));
    }

    private static KafkaPartitionRecords fetchOf(List<ConsumerRecord<byte[], byte[]>> records) {
        KafkaPartitionRecords fetch = new KafkaPartitionRecords(new HashSet<>());
        fetch.add("orders-0", records, records.size());
        return fetch;
    }

    private static class CollectingOutput<T> implements SourceOutput<T> {
        final List<T> collected;

        CollectingOutput(List<T> collected) {
            this.collected = collected;
        }

        @Override
        public void collect(T element) {
            collect(element, Long.MIN_VALUE);
        }

        @Override
        public void collect(T element, long timestamp) {
            collected.add(element);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }
}
