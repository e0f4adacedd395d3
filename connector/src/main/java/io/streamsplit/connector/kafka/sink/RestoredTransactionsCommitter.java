package io.streamsplit.connector.kafka.sink;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The official committer, with one question asked first about a transaction restored from a
 * checkpoint: did the previous run already commit it? A job that restarts from a checkpoint hands
 * the committer that checkpoint's transactions again; those whose commit happened before the restart
 * (the usual case after a restart, a savepoint stop, a rescale) cannot be committed a second time —
 * on Kafka's newer transaction protocol every commit bumps the producer's epoch — and the official
 * committer then logs an ERROR that this "most likely signals data loss", although nothing was lost.
 * Asked through the Admin API ({@code describeTransactions}), a transaction the coordinator reports
 * as completed by a commit is marked committed with an INFO line; everything else goes to the
 * official committer as before, so a transaction that is really fenced (another producer with the
 * same transactional id) or really aborted is still reported by it.
 */
final class RestoredTransactionsCommitter implements Committer<KafkaCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(RestoredTransactionsCommitter.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Committer<KafkaCommittable> official;
    private final Properties adminProperties;
    private @Nullable Admin admin;

    RestoredTransactionsCommitter(Committer<KafkaCommittable> official, Properties producerProperties) {
        this.official = official;
        this.adminProperties = new Properties();
        producerProperties.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(String.valueOf(key))) {
                adminProperties.put(key, value);
            }
        });
        adminProperties.put(AdminClientConfig.CLIENT_ID_CONFIG, "streamsplit-restored-transactions");
    }

    @Override
    public void commit(Collection<CommitRequest<KafkaCommittable>> requests) throws IOException, InterruptedException {
        List<CommitRequest<KafkaCommittable>> toCommit = new ArrayList<>(requests.size());
        for (CommitRequest<KafkaCommittable> request : requests) {
            KafkaCommittable committable = request.getCommittable();
            // a committable with its producer was written in this run; one without came back from a checkpoint
            if (committable.getProducer().isEmpty() && committedBefore(committable)) {
                LOG.info(
                        "Kafka transaction {} of the restored checkpoint was committed before the restart (producer"
                                + " id {}); nothing to commit again",
                        committable.getTransactionalId(),
                        committable.getProducerId());
                request.signalAlreadyCommitted();
            } else {
                toCommit.add(request);
            }
        }
        if (!toCommit.isEmpty()) {
            official.commit(toCommit);
        }
    }

    /** Whether the transaction coordinator says the committable's transaction ended with a commit. */
    private boolean committedBefore(KafkaCommittable committable) throws InterruptedException {
        try {
            TransactionDescription transaction = admin().describeTransactions(List.of(committable.getTransactionalId()))
                    .description(committable.getTransactionalId())
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return transaction.state() == TransactionState.COMPLETE_COMMIT
                    && transaction.producerId() == committable.getProducerId();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception cannotTell) {
            LOG.debug(
                    "Could not ask Kafka about transaction {}: {}; committing it",
                    committable.getTransactionalId(),
                    cannotTell.toString());
            return false;
        }
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(adminProperties);
        }
        return admin;
    }

    @Override
    public void close() throws Exception {
        try {
            official.close();
        } finally {
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        }
    }
}
