package io.streamsplit.pipeline;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What a {@link StreamSplitPipeline} builds with: the configured sources and sinks by name, and the
 * {@link StreamExecutionEnvironment} for anything else.
 *
 * <pre>{@code
 * DataStream<Order> orders = pipeline.source("orders");   // streamsplit.kafka.sources.orders
 * pipeline.sink("totals", totals);                        // streamsplit.kafka.sinks.totals
 * }</pre>
 */
public interface PipelineContext {

    /** The job's environment (parallelism, checkpointing and restarts already applied from YAML). */
    StreamExecutionEnvironment environment();

    /**
     * The records of source {@code name}, with the watermarks configured for it. Asking twice returns
     * the same stream (one source operator). With {@code bad-record-policy: dead-letter} the bad
     * records are written to the source's {@code dead-letter-topic}.
     */
    <T> DataStream<T> source(String name);

    /**
     * Step {@code name}: map, flatMap, filter or keyed-process functions whose exceptions are handled per record
     * (retried, then failed, skipped or dead-lettered) as {@code streamsplit.processing-errors} configures. A name
     * is one step: asking for it twice is refused.
     *
     * <pre>{@code
     * DataStream<Order> priced = pipeline.step("price").map(orders, Prices::price);
     * }</pre>
     */
    Step step(String name);

    /** Writes {@code stream} to sink {@code name}. */
    <T> DataStreamSink<T> sink(String name, DataStream<T> stream);
}
