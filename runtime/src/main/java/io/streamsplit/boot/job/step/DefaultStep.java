package io.streamsplit.boot.job.step;

import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.pipeline.ProcessingErrorPolicy;
import io.streamsplit.pipeline.Step;
import io.streamsplit.pipeline.step.GuardedFunction;
import io.streamsplit.pipeline.step.GuardedKeyedFunction;
import io.streamsplit.pipeline.step.StepErrorRules;
import io.streamsplit.pipeline.step.StepGuard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.TypeExtractor;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.OutputTag;
import org.jspecify.annotations.Nullable;

/**
 * A step of one job build: collects what its code sets, then adds the guarded operator (named and with the uid of
 * the step) and, under the dead-letter policy, the writer of its dead letters to the graph. The rules are resolved
 * when the operator is added, YAML over code over YAML's defaults.
 */
public final class DefaultStep implements Step {

    private final String name;
    private final ProcessingErrors errors;
    private final KafkaSinks sinks;
    private final Map<String, StepErrorRules> built;
    private @Nullable Integer retries;
    private @Nullable Duration backOff;
    private @Nullable ProcessingErrorPolicy policy;
    private @Nullable String deadLetterTopic;
    private final List<String> notRetryable = new ArrayList<>();
    private boolean used;

    public DefaultStep(String name, ProcessingErrors errors, KafkaSinks sinks, Map<String, StepErrorRules> built) {
        this.name = name;
        this.errors = errors;
        this.sinks = sinks;
        this.built = built;
    }

    @Override
    public Step retries(int retries) {
        StepErrorRules.builder().retries(retries); // refused here, in the code's terms
        this.retries = retries;
        return this;
    }

    @Override
    public Step backOff(Duration backOff) {
        StepErrorRules.builder().backOff(backOff);
        this.backOff = backOff;
        return this;
    }

    @Override
    public Step policy(ProcessingErrorPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    @Override
    public Step deadLetterTopic(String topic) {
        StepErrorRules.builder().deadLetterTopic(topic);
        this.deadLetterTopic = topic;
        return this;
    }

    @Override
    @SafeVarargs
    public final Step notRetryable(Class<? extends Throwable>... exceptions) {
        for (Class<? extends Throwable> type : exceptions) {
            notRetryable.add(type.getName());
        }
        return this;
    }

    @Override
    public <I, O> SingleOutputStreamOperator<O> map(DataStream<I> input, MapFunction<I, O> function) {
        MapFunction<I, O> clean = input.getExecutionEnvironment().clean(function);
        TypeInformation<O> type = TypeExtractor.getMapReturnTypes(clean, input.getType(), name, true);
        StepGuard guard = guard();
        return withDeadLetters(input.process(GuardedFunction.map(clean, guard), type), guard);
    }

    @Override
    public <I, O> SingleOutputStreamOperator<O> flatMap(DataStream<I> input, FlatMapFunction<I, O> function) {
        FlatMapFunction<I, O> clean = input.getExecutionEnvironment().clean(function);
        TypeInformation<O> type = TypeExtractor.getFlatMapReturnTypes(clean, input.getType(), name, true);
        StepGuard guard = guard();
        return withDeadLetters(input.process(GuardedFunction.flatMap(clean, guard), type), guard);
    }

    @Override
    public <I> SingleOutputStreamOperator<I> filter(DataStream<I> input, FilterFunction<I> function) {
        FilterFunction<I> clean = input.getExecutionEnvironment().clean(function);
        StepGuard guard = guard();
        return withDeadLetters(input.process(GuardedFunction.filter(clean, guard), input.getType()), guard);
    }

    @Override
    public <K, I, O> SingleOutputStreamOperator<O> process(
            KeyedStream<I, K> input, KeyedProcessFunction<K, I, O> function) {
        KeyedProcessFunction<K, I, O> clean = input.getExecutionEnvironment().clean(function);
        TypeInformation<O> type = TypeExtractor.getUnaryOperatorReturnType(
                clean, KeyedProcessFunction.class, 1, 2, TypeExtractor.NO_INDEX, input.getType(), name, true);
        StepGuard guard = guard();
        return withDeadLetters(input.process(new GuardedKeyedFunction<>(clean, guard), type), guard);
    }

    /** The guard of the step's one operator; a step adds one. */
    private StepGuard guard() {
        if (used) {
            throw new IllegalStateException("Step '" + name + "' already added its operator: a step is one operator;"
                    + " call pipeline.step(name) with another name for the next one");
        }
        used = true;
        StepErrorRules rules = errors.rules(
                name, new ProcessingErrors.FromCode(retries, backOff, policy, deadLetterTopic, notRetryable));
        built.put(name, rules);
        OutputTag<DeadLetterRecord> tag = rules.policy() == ProcessingErrorPolicy.DEAD_LETTER
                ? new OutputTag<>("streamsplit-step-dead-letters-" + name, TypeInformation.of(DeadLetterRecord.class))
                : null;
        return new StepGuard(name, rules, tag);
    }

    private <O> SingleOutputStreamOperator<O> withDeadLetters(SingleOutputStreamOperator<O> operator, StepGuard guard) {
        operator.name(name).uid(name);
        OutputTag<DeadLetterRecord> tag = guard.deadLetters();
        String topic = guard.rules().deadLetterTopic();
        if (tag != null && topic != null) {
            operator.getSideOutput(tag)
                    .sinkTo(sinks.stepDeadLetters(name, topic))
                    .name(topic)
                    .uid("streamsplit-step-dead-letters-" + name);
        }
        return operator;
    }
}
