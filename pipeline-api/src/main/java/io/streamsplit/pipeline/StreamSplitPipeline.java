package io.streamsplit.pipeline;

/**
 * Builds (part of) the application's Flink job from the sources and sinks named in
 * {@code application.yml}. Every pipeline bean is called once at startup, in {@code @Order}; all of
 * them together become one Flink job, submitted when the context has started.
 *
 * <pre>{@code
 * @Bean
 * StreamSplitPipeline orderTotals() {
 *     return pipeline -> {
 *         DataStream<Order> orders = pipeline.source("orders");
 *         pipeline.sink("totals", orders.keyBy(Order::customer).sum("amount"));
 *     };
 * }
 * }</pre>
 *
 * <p>Functions used in the graph are shipped to Flink's TaskManagers: they must not capture Spring
 * beans that are not serializable.
 */
@FunctionalInterface
public interface StreamSplitPipeline {

    /** Adds operators to the job through {@code pipeline}. */
    void build(PipelineContext pipeline) throws Exception;
}
