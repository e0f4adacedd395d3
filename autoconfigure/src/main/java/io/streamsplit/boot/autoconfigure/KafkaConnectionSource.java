package io.streamsplit.boot.autoconfigure;

/**
 * A place the bootstrap servers can come from when {@code streamsplit.kafka.bootstrap-servers} is
 * not set: Spring Boot's Kafka connection, or the dev-mode embedded broker.
 */
interface KafkaConnectionSource {

    /** Comma-separated bootstrap servers, or {@code null} when this source has none. */
    String bootstrapServers();

    /** Where the servers come from, for the startup log. */
    String description();

    /** Whether this is the dev-mode broker, the last resort after every configured connection. */
    default boolean isDevBroker() {
        return false;
    }
}
