package io.streamsplit.boot.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The id of the Kafka cluster at some bootstrap servers ({@code describeCluster}): the same for as long
 * as the cluster lives, another for a new cluster at the same address (a test's broker, a recreated
 * dev broker, a migration).
 */
public final class KafkaClusterId {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterId.class);

    private KafkaClusterId() {}

    /** The cluster id at {@code servers}, or empty when no broker answered within {@code timeout}. */
    public static Optional<String> lookUp(String servers, KafkaClients clients, Duration timeout) {
        if (KafkaListeners.nothingListens(servers)) {
            LOG.debug("Could not read the Kafka cluster id at {}: nothing listens there", servers);
            return Optional.empty();
        }
        Properties admin = KafkaClients.checkingAdmin(
                clients.forClient(KafkaClients.Kind.ADMIN, servers, Map.of()), "streamsplit-cluster-id", timeout);
        try (BoundedAdmin bounded = BoundedAdmin.create(admin)) {
            Admin client = bounded.admin();
            return Optional.ofNullable(
                    client.describeCluster().clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception e) {
            LOG.debug("Could not read the Kafka cluster id at {}: {}", servers, e.toString());
            return Optional.empty();
        }
    }
}
