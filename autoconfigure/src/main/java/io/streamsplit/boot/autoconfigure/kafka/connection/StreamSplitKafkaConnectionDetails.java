package io.streamsplit.boot.autoconfigure.kafka.connection;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * Where the Kafka cluster of every StreamSplit source and sink is, and how to reach it: bootstrap
 * servers, security protocol and SSL bundle. A source or sink with its own {@code bootstrap-servers}
 * uses those servers instead; client {@code properties} apply on top.
 *
 * <p>The default bean reads {@code streamsplit.kafka.bootstrap-servers} and {@code ssl-bundle},
 * then Spring Boot's {@code KafkaConnectionDetails} as a whole (a Testcontainers
 * {@code @ServiceConnection}, or {@code spring.kafka.*}), then the dev-mode broker. Define a bean of
 * this type to take over:
 *
 * <pre>{@code
 * import java.util.List;
 *
 * import io.streamsplit.boot.autoconfigure.kafka.connection.StreamSplitKafkaConnectionDetails;
 * import org.springframework.context.annotation.Bean;
 *
 * @Bean
 * StreamSplitKafkaConnectionDetails kafka() {
 *     return () -> List.of("kafka-1.internal:9092", "kafka-2.internal:9092");
 * }
 * }</pre>
 */
@FunctionalInterface
public interface StreamSplitKafkaConnectionDetails extends ConnectionDetails {

    /** The bootstrap servers ({@code host:port}); empty when nothing says where Kafka is. */
    List<String> getBootstrapServers();

    /** Kafka's {@code security.protocol} (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL); {@code null}: leave it to the client properties. */
    default @Nullable String getSecurityProtocol() {
        return null;
    }

    /** Trust and key material; it travels with the job as PEM client properties. {@code null}: none. */
    default @Nullable SslBundle getSslBundle() {
        return null;
    }
}
