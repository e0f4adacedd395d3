package io.streamsplit.connector.kafka.source.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitState;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.types.Either;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
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

    /** The output of a chained operator that fails on every element. */
    private static final class FailingOutput<T> implements SourceOutput<T> {
        final List<T> collected = new ArrayList<>();

        @Override
        public void collect(T element) {
            collect(element, Long.MIN_VALUE);
        }

        @Override
        public void collect(T element, long timestamp) {
            if (element instanceof Either<?, ?> either && either.isLeft()) {
                collected.add(element);
                return;
            }
            throw new IllegalStateException("the operator after the source failed");
        }

        @Override
        public void emitWatermark(Watermark watermark) {
        }

        @Override
        public void markIdle() {
        }

        @Override
        public void markActive() {
        }
    }

    private static String value(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }

    @Test
    void downstreamFailureFailsTheTaskInsteadOfDeadLetteringTheRecord() {
        KafkaSourceRecordEmitter<String, Either<DeadLetterRecord, String>> emitter = new KafkaSourceRecordEmitter<>(
                "orders", (record, out) -> out.collect(value(record)), ElementMapping.withDeadLetters(),
                BadRecordPolicy.DEAD_LETTER, metrics);
        FailingOutput<Either<DeadLetterRecord, String>> output = new FailingOutput<>();

        assertThatThrownBy(() -> emitter.emitRecord(RECORD, output, split))
                .isInstanceOf(IllegalStateException.class).hasMessage("the operator after the source failed");
        assertThat(output.collected).as("no dead letter for a good record").isEmpty();
        assertThat(split.currentOffset()).as("the record is read again after recovery").isEqualTo(41);
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
        KafkaSourceRecordEmitter<String, String> emitter = new KafkaSourceRecordEmitter<>("orders", swallowing,
                ElementMapping.elementsOnly(), BadRecordPolicy.SKIP, metrics);

        assertThatThrownBy(() -> emitter.emitRecord(RECORD, new FailingOutput<>(), split))
                .hasMessage("the operator after the source failed");
        assertThat(split.currentOffset()).isEqualTo(41);
    }

    @Test
    void emitterFailureIsStillABadRecord() throws Exception {
        KafkaSourceRecordEmitter<String, Either<DeadLetterRecord, String>> emitter = new KafkaSourceRecordEmitter<>(
                "orders", (record, out) -> {
                    throw new IllegalArgumentException("not an order");
                }, ElementMapping.withDeadLetters(), BadRecordPolicy.DEAD_LETTER, metrics);
        FailingOutput<Either<DeadLetterRecord, String>> output = new FailingOutput<>();

        emitter.emitRecord(RECORD, output, split);

        assertThat(output.collected).hasSize(1);
        assertThat(output.collected.get(0).left().exceptionMessage).isEqualTo("not an order");
        assertThat(split.currentOffset()).isEqualTo(42);
    }
}
