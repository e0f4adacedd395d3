package io.streamsplit.connector.kafka.sink;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink.PrecommittingStatefulSinkWriter;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint flush on kafka-clients 4.3 and later, where the official writer's flush ends in a
 * NoSuchMethodError after Kafka's own flush returned: the checkpoint goes on when every record was sent
 * and fails when one was not, so a transaction with a lost record is never committed. (The real writer on
 * kafka-clients 4.4 runs in the compatibility module's exactly-once recovery tests on Spring Boot 4.2.)
 */
class FlushCompletingWriterTest {

    @Test
    void theRemovedAwaitAfterACompleteFlushLetsTheCheckpointGoOn() {
        Writer official = new Writer(removedAwait());
        FlushCompletingWriter<String> writer = new FlushCompletingWriter<>(official);

        assertThatCode(() -> writer.flush(false)).doesNotThrowAnyException();
    }

    @Test
    void aRecordWhoseSendFailedFailsTheCheckpointOnce() {
        Writer official = new Writer(removedAwait());
        official.asyncProducerException = new RecordTooLargeException("too large");
        FlushCompletingWriter<String> writer = new FlushCompletingWriter<>(official);

        assertThatThrownBy(() -> writer.flush(false))
                .isInstanceOf(IOException.class)
                .hasRootCauseInstanceOf(RecordTooLargeException.class);
        assertThatCode(() -> writer.flush(false))
                .as("reported once, as the official check does")
                .doesNotThrowAnyException();
    }

    @Test
    void anyOtherMissingMethodIsNotHidden() {
        Writer official =
                new Writer(new NoSuchMethodError("'void org.apache.kafka.clients.producer.KafkaProducer.other()'"));
        FlushCompletingWriter<String> writer = new FlushCompletingWriter<>(official);

        assertThatThrownBy(() -> writer.flush(false)).isInstanceOf(NoSuchMethodError.class);
    }

    private static NoSuchMethodError removedAwait() {
        return new NoSuchMethodError(
                "'void org.apache.kafka.clients.producer.internals.TransactionalRequestResult.await()'");
    }

    /** A writer whose flush fails as the official one does on kafka-clients 4.3+, keeping send failures where it does. */
    private static final class Writer
            implements PrecommittingStatefulSinkWriter<String, KafkaWriterState, KafkaCommittable> {

        private final NoSuchMethodError onFlush;

        @SuppressWarnings("unused") // read by the writer under test, as the official writer's field
        private volatile @Nullable Exception asyncProducerException;

        Writer(NoSuchMethodError onFlush) {
            this.onFlush = onFlush;
        }

        @Override
        public void flush(boolean endOfInput) {
            throw onFlush;
        }

        @Override
        public void write(String element, Context context) {}

        @Override
        public Collection<KafkaCommittable> prepareCommit() {
            return List.of();
        }

        @Override
        public List<KafkaWriterState> snapshotState(long checkpointId) {
            return List.of();
        }

        @Override
        public void close() {}
    }
}
