package io.streamsplit.boot.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The settings of the Kafka clients StreamSplit creates, as the runtime asks for them: by kind of client and
 * bootstrap servers, the application's shared settings (connection, security, {@code streamsplit.kafka.properties})
 * already applied. How those settings are configured is the auto-configuration's business; the runtime only
 * asks.
 *
 * <pre>{@code
 * Properties admin = KafkaClients.checkingAdmin(
 *         clients.forClient(KafkaClients.Kind.ADMIN, "broker:9092", Map.of()), "my-check", Duration.ofSeconds(5));
 * }</pre>
 */
@FunctionalInterface
public interface KafkaClients {

    /** The kinds of Kafka client StreamSplit creates. */
    enum Kind {
        /** A source's consumer. */
        CONSUMER(ConsumerConfig.configNames()),
        /** A sink's or a dead-letter topic's producer. */
        PRODUCER(ProducerConfig.configNames()),
        /** An admin client: a source's enumerator, the startup checks. */
        ADMIN(AdminClientConfig.configNames());

        private final Set<String> names;

        Kind(Set<String> names) {
            this.names = names;
        }

        /** The configuration names a client of this kind knows. */
        public Set<String> names() {
            return names;
        }
    }

    /** A {@code kind} of client's full settings: {@code servers}, the shared settings, then its {@code own}. */
    Properties forClient(Kind kind, String servers, Map<String, String> own);

    /**
     * The entries of {@code client} that a client with these configuration {@code names} knows, e.g. a
     * producer's settings out of a consumer's: {@code only(consumer, ProducerConfig.configNames())}.
     */
    static Properties only(Properties client, Set<String> names) {
        Properties known = new Properties();
        client.forEach((key, value) -> {
            if (names.contains(String.valueOf(key))) {
                known.put(key, value);
            }
        });
        return known;
    }

    /**
     * The settings of a short-lived admin client that checks something at startup: {@code client}'s
     * admin settings, its own {@code clientId}, and {@code timeout} for each call and request.
     */
    static Properties checkingAdmin(Properties client, String clientId, Duration timeout) {
        Properties admin = only(client, AdminClientConfig.configNames());
        admin.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        return admin;
    }
}
