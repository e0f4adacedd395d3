package io.streamsplit.boot.autoconfigure.kafka.connection;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
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

    /**
     * The property that sets the servers of the client configured under {@code property}: itself when
     * the client has its own, else the shared one ({@code streamsplit.kafka.bootstrap-servers},
     * {@code spring.kafka.bootstrap-servers}, ...), for messages about those servers.
     */
    public String origin(String property, List<String> own) {
        if (!own.isEmpty()) {
            return property;
        }
        if (connection instanceof PropertiesStreamSplitKafkaConnectionDetails props) {
            return props.bootstrapServersOrigin();
        }
        return "the StreamSplitKafkaConnectionDetails bean";
    }

    /** Whether the shared connection is the dev-mode broker, whose data is deleted at shutdown. */
    public boolean sharedIsDevBroker() {
        return connection instanceof PropertiesStreamSplitKafkaConnectionDetails props && props.usesDevBroker();
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
        String devBrokerOff =
                connection instanceof PropertiesStreamSplitKafkaConnectionDetails props ? props.devBrokerOff() : null;
        throw new InvalidStreamSplitConfigurationException(
                property,
                null,
                "no Kafka cluster is configured" + (devBrokerOff == null ? "" : " (" + devBrokerOff + ")"),
                "Set streamsplit.kafka.bootstrap-servers (or spring.kafka.bootstrap-servers, or " + property + ")"
                        + (devBrokerOff == null
                                ? ", or add io.streamsplit:streamsplit-embedded-kafka to run an in-JVM dev broker"
                                        + " while you develop."
                                : devBrokerOff.contains("is false")
                                        ? ", or remove streamsplit.kafka.embedded.enabled=false to develop on the in-JVM"
                                                + " dev broker."
                                        : ". A packaged demo on the in-JVM dev broker (never production) sets"
                                                + " streamsplit.kafka.embedded.enabled=true."));
    }
}
