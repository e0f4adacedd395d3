package io.streamsplit.boot.job.replica;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.BoundedAdmin;
import io.streamsplit.boot.kafka.KafkaListeners;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The election's topic exists before any instance joins: one partition (the job), created with the broker's
 * default replication when missing. Credentials that may neither see nor create it fail startup, naming the
 * topic, the permission and the setting.
 */
public final class ElectionTopic {

    private static final String PROPERTY = "streamsplit.flink.embedded.replicas.topic";

    private ElectionTopic() {}

    /** Makes sure {@code topic} exists, with an admin client of {@code admin}'s settings, within {@code timeout}. */
    public static void ensure(Properties admin, String topic, Duration timeout) {
        String servers = String.valueOf(admin.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        if (KafkaListeners.nothingListens(servers)) {
            throw new InvalidStreamSplitConfigurationException(
                    PROPERTY,
                    topic,
                    "the replicas' election topic cannot be looked up: nothing listens at " + servers,
                    "Start Kafka there, or fix streamsplit.kafka.bootstrap-servers.");
        }
        BoundedAdmin created;
        try {
            created = BoundedAdmin.create(admin);
        } catch (KafkaException e) {
            throw new InvalidStreamSplitConfigurationException(
                    PROPERTY,
                    topic,
                    "no Kafka client could be made to look up the replicas' election topic: " + e.getMessage()
                            + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""),
                    "Fix streamsplit.kafka.bootstrap-servers and the Kafka client settings.",
                    e);
        }
        try (created) {
            Admin client = created.admin();
            try {
                client.describeTopics(List.of(topic)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof AuthorizationException denied) {
                    throw notAllowed(topic, denied, "DESCRIBE and READ");
                }
                // unknown topic: create it below
            }
            try {
                client.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty())))
                        .all()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TopicExistsException) {
                    return; // another replica created it first
                }
                if (e.getCause() instanceof AuthorizationException denied) {
                    throw notAllowed(topic, denied, "CREATE (or create the topic with one partition beforehand)");
                }
                throw new InvalidStreamSplitConfigurationException(
                        PROPERTY,
                        topic,
                        "the replicas' election topic could not be created: " + String.valueOf(e.getCause()),
                        "Create it with one partition, or set " + PROPERTY + " to a topic that exists.",
                        e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking the election topic " + topic, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new InvalidStreamSplitConfigurationException(
                    PROPERTY,
                    topic,
                    "Kafka did not answer within " + timeout.toSeconds() + " s about the replicas' election topic",
                    "Check that Kafka is reachable (streamsplit.kafka.bootstrap-servers), or set"
                            + " streamsplit.flink.embedded.replicas.election=false to run the job on every instance.",
                    e);
        }
    }

    private static InvalidStreamSplitConfigurationException notAllowed(
            String topic, AuthorizationException denied, String permission) {
        return new InvalidStreamSplitConfigurationException(
                PROPERTY,
                topic,
                "the application's Kafka credentials may not use the replicas' election topic (" + denied.getMessage()
                        + ")",
                "Grant the application's principal " + permission + " on topic '" + topic + "' and READ on its"
                        + " election group (streamsplit.flink.embedded.replicas.group-id), or set " + PROPERTY
                        + " to a topic it may use.",
                denied);
    }
}
