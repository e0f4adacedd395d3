package io.streamsplit.boot.autoconfigure.flink;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Adjusts the job's {@link StreamExecutionEnvironment} after {@code streamsplit.flink.*} is applied and
 * before any pipeline bean builds on it. Every customizer bean is called once, in {@code @Order}.
 *
 * <pre>{@code
 * import io.streamsplit.boot.autoconfigure.flink.StreamExecutionEnvironmentCustomizer;
 * import org.springframework.context.annotation.Bean;
 *
 * @Bean
 * StreamExecutionEnvironmentCustomizer lowLatency() {
 *     return environment -> environment.setBufferTimeout(5); // flush network buffers every 5 ms
 * }
 * }</pre>
 */
@FunctionalInterface
public interface StreamExecutionEnvironmentCustomizer {

    /** Customizes the job's environment. */
    void customize(StreamExecutionEnvironment environment);
}
