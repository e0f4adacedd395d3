package io.streamsplit.connector.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transactions restored from a checkpoint, as a real broker's transaction coordinator knows them: one
 * that was committed before the restart is marked committed and not handed on (the official committer
 * would fail to commit it again and log a false "data loss" ERROR); one that was aborted, and one
 * still open, go to the official committer as before, so a real problem is still its to report.
 */
class RestoredTransactionsCommitterIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final List<KafkaProducer<byte[], byte[]>> OPEN = new ArrayList<>();

    @org.junit.jupiter.api.AfterAll
    static void closeOpenTransactions() {
        OPEN.forEach(KafkaProducer::close);
    }

    @Test
    void onlyATransactionCommittedBeforeTheRestartIsNotCommittedAgain() throws Exception {
        KAFKA.broker().createTopic("restored-out", 1);
        KafkaCommittable committed = transaction("restored-0-1", Ending.COMMIT);
        KafkaCommittable aborted = transaction("restored-0-2", Ending.ABORT);
        KafkaCommittable open = transaction("restored-0-3", Ending.NONE);
        Recording official = new Recording();
        Properties producer = new Properties();
        producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        producer.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "60000");
        Request first = new Request(committed);
        Request second = new Request(aborted);
        Request third = new Request(open);

        try (RestoredTransactionsCommitter committer = new RestoredTransactionsCommitter(official, producer)) {
            committer.commit(List.of(first, second, third));
        }

        assertThat(first.alreadyCommitted).as("committed before the restart").isTrue();
        assertThat(official.received)
                .as("handed to the official committer")
                .extracting(KafkaCommittable::getTransactionalId)
                .containsExactly("restored-0-2", "restored-0-3");
        assertThat(second.alreadyCommitted).isFalse();
        assertThat(third.alreadyCommitted).isFalse();
    }

    private enum Ending {
        COMMIT,
        ABORT,
        NONE
    }

    /** A real transaction with one record, ended as asked; its committable as a checkpoint would restore it. */
    private static KafkaCommittable transaction(String transactionalId, Ending ending) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("restored-out", "x".getBytes())).get();
        long producerId;
        short epoch;
        try (var admin =
                org.apache.kafka.clients.admin.Admin.create(KAFKA.broker().clientProperties())) {
            var description = admin.describeTransactions(List.of(transactionalId))
                    .description(transactionalId)
                    .get();
            producerId = description.producerId();
            epoch = (short) description.producerEpoch();
        }
        switch (ending) {
            case COMMIT -> producer.commitTransaction();
            case ABORT -> producer.abortTransaction();
            case NONE -> {}
        }
        if (ending == Ending.NONE) {
            OPEN.add(producer); // keeps its transaction open while the test runs
        } else {
            producer.close();
        }
        // a committable restored from a checkpoint carries no producer of this run
        return new KafkaCommittable(producerId, epoch, transactionalId, null);
    }

    /** Stands in for the official committer: records what it is handed, commits nothing. */
    private static final class Recording implements Committer<KafkaCommittable> {
        final List<KafkaCommittable> received = new ArrayList<>();

        @Override
        public void commit(java.util.Collection<CommitRequest<KafkaCommittable>> requests) {
            requests.forEach(request -> received.add(request.getCommittable()));
        }

        @Override
        public void close() {}
    }

    private static final class Request implements Committer.CommitRequest<KafkaCommittable> {
        final KafkaCommittable committable;
        boolean alreadyCommitted;

        Request(KafkaCommittable committable) {
            this.committable = committable;
        }

        @Override
        public KafkaCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {}

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {}

        @Override
        public void retryLater() {}

        @Override
        public void updateAndRetryLater(KafkaCommittable committable) {}

        @Override
        public void signalAlreadyCommitted() {
            alreadyCommitted = true;
        }
    }
}
