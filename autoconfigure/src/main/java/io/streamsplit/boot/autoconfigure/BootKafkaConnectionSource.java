package io.streamsplit.boot.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.core.env.Environment;

/**
 * Spring Boot's {@link KafkaConnectionDetails}: a {@code @ServiceConnection} container, or the
 * {@code spring.kafka.*} properties. Boot's property-backed details answer {@code localhost:9092}
 * even when nothing is configured; that default is not taken as a configuration, so dev mode can
 * still start its broker.
 */
final class BootKafkaConnectionSource implements KafkaConnectionSource {

    private static final String PROPERTY_BACKED = "PropertiesKafkaConnectionDetails";

    private final ObjectProvider<KafkaConnectionDetails> details;
    private final Environment environment;

    BootKafkaConnectionSource(ObjectProvider<KafkaConnectionDetails> details, Environment environment) {
        this.details = details;
        this.environment = environment;
    }

    @Override
    public String bootstrapServers() {
        KafkaConnectionDetails details = this.details.getIfAvailable();
        if (details == null) {
            return null;
        }
        boolean propertyBacked = details.getClass().getSimpleName().equals(PROPERTY_BACKED);
        if (propertyBacked && !environment.containsProperty("spring.kafka.bootstrap-servers")
                && !environment.containsProperty("spring.kafka.consumer.bootstrap-servers")) {
            return null;
        }
        return String.join(",", details.getConsumer().getBootstrapServers());
    }

    @Override
    public String description() {
        return "Spring Boot's KafkaConnectionDetails";
    }
}
