package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.connector.kafka.source.StreamSplitKafkaSourceBuilder;

/**
 * Adjusts the builder of a source configured under {@code streamsplit.kafka.sources.<name>} after the
 * YAML settings are applied and before the source is built, so one setting can change without
 * replacing the whole bean. Every customizer bean is called for every source, in {@code @Order}.
 *
 * <pre>{@code
 * import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSourceCustomizer;
 * import org.springframework.context.annotation.Bean;
 *
 * @Bean
 * StreamSplitKafkaSourceCustomizer biggerFetches() {
 *     return (name, builder) -> {
 *         if (name.equals("orders")) {
 *             builder.setProperty("max.partition.fetch.bytes", "4194304");
 *         }
 *     };
 * }
 * }</pre>
 *
 * <p>The builder checks what a customizer sets, as it checks YAML: a conflict fails startup.
 */
@FunctionalInterface
public interface StreamSplitKafkaSourceCustomizer {

    /** Customizes the builder of source {@code sourceName}. */
    void customize(String sourceName, StreamSplitKafkaSourceBuilder<?> builder);
}
