package io.streamsplit.boot.autoconfigure.kafka;

import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;

/**
 * Adjusts Flink's {@link KafkaSinkBuilder} of a sink configured under
 * {@code streamsplit.kafka.sinks.<name>} after the YAML settings are applied and before the sink is
 * built. Every customizer bean is called for every sink, in {@code @Order}; dead-letter sinks are
 * named {@code <source>.dead-letters}.
 *
 * <pre>{@code
 * import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSinkCustomizer;
 * import org.springframework.context.annotation.Bean;
 *
 * @Bean
 * StreamSplitKafkaSinkCustomizer compressTotals() {
 *     return (name, builder) -> builder.setProperty("compression.type", "zstd");
 * }
 * }</pre>
 */
@FunctionalInterface
public interface StreamSplitKafkaSinkCustomizer {

    /** Customizes the builder of sink {@code sinkName}. */
    void customize(String sinkName, KafkaSinkBuilder<?> builder);
}
