package io.streamsplit.embedded.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link ReplicatedKafkaCluster} says about itself, through Kafka's Admin client: its topics, who leads a
 * partition, who is in sync, the active controller, a transaction's coordinator, the registered brokers. One
 * client for the cluster's life, opened at the first question.
 */
final class ClusterAdmin {

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final String bootstrapServers;
    private final short replicationFactor;
    private @Nullable Admin admin;

    ClusterAdmin(String bootstrapServers, short replicationFactor) {
        this.bootstrapServers = bootstrapServers;
        this.replicationFactor = replicationFactor;
    }

    /** Creates {@code topic} with {@code partitions} partitions at the cluster's replication factor. */
    void createTopic(String topic, int partitions) {
        withAdmin(
                admin -> {
                    try {
                        return admin.createTopics(List.of(new NewTopic(topic, partitions, replicationFactor)))
                                .all()
                                .get(ADMIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        if (e.getCause() instanceof TopicExistsException) {
                            return null;
                        }
                        throw e;
                    }
                },
                "create topic " + topic);
        awaitInSync(topic);
    }

    /** The node that leads {@code topic}'s partition {@code partition}, or -1 while none does. */
    int leader(String topic, int partition) {
        Node leader = describe(topic).partitions().get(partition).leader();
        return leader == null || leader.isEmpty() ? -1 : leader.id();
    }

    /** The nodes in sync for {@code topic}'s partition {@code partition}. */
    List<Integer> inSyncReplicas(String topic, int partition) {
        return describe(topic).partitions().get(partition).isr().stream()
                .map(Node::id)
                .toList();
    }

    /** The active controller: the leader of the KRaft quorum. */
    int activeController() {
        return withAdmin(
                admin -> admin.describeMetadataQuorum()
                        .quorumInfo()
                        .get(ADMIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                        .leaderId(),
                "read the active controller");
    }

    /** The node coordinating {@code transactionalId}'s transactions (the leader of its transaction state partition). */
    int transactionCoordinator(String transactionalId) {
        return withAdmin(
                admin -> admin.describeTransactions(List.of(transactionalId))
                        .description(transactionalId)
                        .get(ADMIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                        .coordinatorId(),
                "find the coordinator of transactional id " + transactionalId);
    }

    /** Waits until every partition of {@code topics} has a leader and all its replicas in sync. */
    void awaitInSync(String... topics) {
        long deadline = System.nanoTime() + ReplicatedKafkaCluster.START_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                Map<String, TopicDescription> descriptions = admin().describeTopics(List.of(topics))
                        .allTopicNames()
                        .get(ADMIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                List<String> behind = new ArrayList<>();
                descriptions.values().forEach(description -> {
                    for (TopicPartitionInfo partition : description.partitions()) {
                        if (partition.leader() == null
                                || partition.isr().size() < partition.replicas().size()) {
                            behind.add(description.name() + "-" + partition.partition() + " isr "
                                    + partition.isr().stream().map(Node::id).toList());
                        }
                    }
                });
                if (behind.isEmpty()) {
                    return;
                }
                last = String.join(", ", behind);
            } catch (ExecutionException | TimeoutException e) {
                last = String.valueOf(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted waiting for in-sync replicas of " + List.of(topics), e);
            }
            ReplicatedKafkaCluster.sleep(100);
        }
        throw new IllegalStateException("Replicas of " + List.of(topics) + " not in sync within "
                + ReplicatedKafkaCluster.START_TIMEOUT.toSeconds() + " s: " + last);
    }

    /** Waits until nodes {@code ids} are registered brokers. */
    void awaitRegistered(Set<Integer> ids) {
        withAdmin(
                admin -> {
                    BrokerSupport.awaitBrokers(admin, ids, ReplicatedKafkaCluster.START_TIMEOUT);
                    return null;
                },
                "see Kafka nodes " + ids + " registered as brokers");
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrapServers,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                    (int) ADMIN_TIMEOUT.toMillis(),
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                    5_000));
        }
        return admin;
    }

    private TopicDescription describe(String topic) {
        return withAdmin(
                admin -> admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(ADMIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                        .get(topic),
                "describe topic " + topic);
    }

    /** {@code call} on the cluster's admin client; a failure says what could not be done and why. */
    private <T> T withAdmin(EmbeddedKafkaBroker.AdminCall<T> call, String what) {
        try {
            return call.call(admin());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("Could not " + what + " on " + bootstrapServers + ": " + cause, cause);
        }
    }

    synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
