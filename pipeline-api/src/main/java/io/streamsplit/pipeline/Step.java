package io.streamsplit.pipeline;

import java.time.Duration;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;

/**
 * A named step of a pipeline whose code may throw for one record: the exception is caught for that record, the
 * record is tried again in place ({@link #retries}, with a growing {@link #backOff}), and then handled by the
 * step's {@link ProcessingErrorPolicy}: fail the task, skip the record, or dead-letter it. A keyed step's state,
 * timers and output are left as they were before a failed attempt. The step's operator is named and has the uid
 * {@code name}.
 *
 * <pre>{@code
 * import io.streamsplit.pipeline.ProcessingErrorPolicy;
 * import io.streamsplit.pipeline.StreamSplitPipeline;
 * import org.apache.flink.streaming.api.datastream.DataStream;
 *
 * StreamSplitPipeline enriched = pipeline -> {
 *     DataStream<Order> orders = pipeline.source("orders");
 *     DataStream<Order> priced = pipeline.step("price")
 *             .policy(ProcessingErrorPolicy.DEAD_LETTER)
 *             .notRetryable(IllegalArgumentException.class)
 *             .map(orders, Prices::price);
 *     pipeline.sink("priced", priced);
 * };
 * }</pre>
 *
 * <p>What is set here is the step's default: {@code streamsplit.processing-errors.steps.<name>.*} in YAML wins
 * over it, and it wins over {@code streamsplit.processing-errors.*}. Retries run on the task's thread: a record
 * waiting for its next try holds back its partition (and checkpoints) for the back-off.
 */
public interface Step {

    /** How often a failed record is tried again before the policy applies; 0: never. */
    Step retries(int retries);

    /** The wait before the first retry; each further retry waits twice as long, up to the maximum back-off. */
    Step backOff(Duration backOff);

    /** What happens to a record that still fails after the retries. */
    Step policy(ProcessingErrorPolicy policy);

    /** The topic the {@link ProcessingErrorPolicy#DEAD_LETTER dead-letter} policy writes to. */
    Step deadLetterTopic(String topic);

    /**
     * Exceptions that no retry can cure (a parse error, a missing field): a record failing with one of them, or
     * with one of them among its causes, goes to the policy at once.
     */
    @SuppressWarnings("unchecked")
    Step notRetryable(Class<? extends Throwable>... exceptions);

    /** {@code input.map(function)}, each element guarded. */
    <I, O> SingleOutputStreamOperator<O> map(DataStream<I> input, MapFunction<I, O> function);

    /** {@code input.flatMap(function)}, each element guarded: a failed attempt's output is not emitted. */
    <I, O> SingleOutputStreamOperator<O> flatMap(DataStream<I> input, FlatMapFunction<I, O> function);

    /** {@code input.filter(function)}, each element guarded. */
    <I> SingleOutputStreamOperator<I> filter(DataStream<I> input, FilterFunction<I> function);

    /**
     * {@code input.process(function)}, each element guarded: what a failed attempt did to the key's state
     * ({@code ValueState}, {@code ListState}, {@code MapState}, {@code ReducingState}), its timers and its output
     * is undone before the next attempt or the policy. Timers ({@code onTimer}) are not guarded.
     */
    <K, I, O> SingleOutputStreamOperator<O> process(KeyedStream<I, K> input, KeyedProcessFunction<K, I, O> function);
}
