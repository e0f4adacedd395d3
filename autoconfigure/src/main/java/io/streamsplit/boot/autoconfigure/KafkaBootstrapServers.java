package io.streamsplit.boot.autoconfigure;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/**
 * Decides which Kafka cluster a source or sink talks to. First match wins: its own
 * {@code bootstrap-servers}; {@code streamsplit.kafka.bootstrap-servers}; Spring Boot's Kafka
 * connection ({@code @ServiceConnection}, {@code spring.kafka.bootstrap-servers}, also without
 * spring-kafka on the classpath); the dev-mode embedded broker.
 */
final class KafkaBootstrapServers {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaBootstrapServers.class);

    private final List<String> common;
    private final Environment environment;
    private final List<KafkaConnectionSource> bootConnections;
    private final KafkaConnectionSource devBroker;

    KafkaBootstrapServers(List<String> common, Environment environment, List<KafkaConnectionSource> bootConnections,
            KafkaConnectionSource devBroker) {
        this.common = common;
        this.environment = environment;
        this.bootConnections = bootConnections;
        this.devBroker = devBroker;
    }

    /** The servers for the client configured under {@code property} (…{@code .bootstrap-servers}). */
    String resolve(String property, List<String> own) {
        if (!own.isEmpty()) {
            return String.join(",", own);
        }
        if (!common.isEmpty()) {
            return String.join(",", common);
        }
        for (KafkaConnectionSource source : bootConnections) {
            String servers = source.bootstrapServers();
            if (servers != null && !servers.isBlank()) {
                LOG.debug("{}: bootstrap servers {} from {}", property, servers, source.description());
                return servers;
            }
        }
        String fromBoot = environment.getProperty("spring.kafka.bootstrap-servers");
        if (fromBoot != null && !fromBoot.isBlank()) {
            return fromBoot;
        }
        if (devBroker != null) {
            return devBroker.bootstrapServers();
        }
        throw new InvalidStreamSplitConfigurationException(property, null, "no Kafka cluster is configured",
                "Set streamsplit.kafka.bootstrap-servers (or spring.kafka.bootstrap-servers, or " + property
                        + "), or add io.streamsplit:streamsplit-embedded-kafka to run an in-JVM dev broker.");
    }
}
