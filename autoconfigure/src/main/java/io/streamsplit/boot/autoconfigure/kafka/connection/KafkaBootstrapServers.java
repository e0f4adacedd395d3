package io.streamsplit.boot.autoconfigure.kafka.connection;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which Kafka cluster a source or sink talks to: its own {@code bootstrap-servers}, else the
 * {@link StreamSplitKafkaConnectionDetails}.
 */
public final class KafkaBootstrapServers {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaBootstrapServers.class);

    private final StreamSplitKafkaConnectionDetails connection;

    public KafkaBootstrapServers(StreamSplitKafkaConnectionDetails connection) {
        this.connection = connection;
    }

    /** The servers for the client configured under {@code property} (…{@code .bootstrap-servers}). */
    public String resolve(String property, List<String> own) {
        if (!own.isEmpty()) {
            return String.join(",", own);
        }
        List<String> servers = connection.getBootstrapServers();
        if (servers != null && !servers.isEmpty()) {
            if (LOG.isDebugEnabled()) {
                LOG.debug(
                        "{}: bootstrap servers {} from {}",
                        property,
                        servers,
                        connection instanceof PropertiesStreamSplitKafkaConnectionDetails props
                                ? props.bootstrapServersOrigin()
                                : connection.getClass().getName());
            }
            return String.join(",", servers);
        }
        throw new InvalidStreamSplitConfigurationException(
                property,
                null,
                "no Kafka cluster is configured",
                "Set streamsplit.kafka.bootstrap-servers (or spring.kafka.bootstrap-servers, or " + property
                        + "), or add io.streamsplit:streamsplit-embedded-kafka to run an in-JVM dev broker.");
    }
}
