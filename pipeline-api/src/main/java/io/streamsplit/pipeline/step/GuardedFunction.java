package io.streamsplit.pipeline.step;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.Function;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.util.FunctionUtils;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * A user's map, flatMap or filter function as a step: each element's call is guarded by a {@link StepGuard}.
 * Only the user's call is guarded: an exception from the operators behind the step (thrown while the step hands
 * its result on) is theirs, not this step's, and passes through. A flatMap's output goes on only once the call
 * returned, so a failed attempt emits nothing.
 *
 * <pre>{@code
 * input.process(GuardedFunction.map(Prices::price, guard), outputType).name("price").uid("price");
 * }</pre>
 */
public final class GuardedFunction<I, O> extends ProcessFunction<I, O> {

    private static final long serialVersionUID = 1L;

    private enum Kind {
        MAP,
        FLAT_MAP,
        FILTER
    }

    private final Function user;
    private final Kind kind;
    private final StepGuard guard;
    private transient Buffer<O> buffer;

    private GuardedFunction(Function user, Kind kind, StepGuard guard) {
        this.user = user;
        this.kind = kind;
        this.guard = guard;
        this.buffer = new Buffer<>();
    }

    public static <I, O> GuardedFunction<I, O> map(MapFunction<I, O> function, StepGuard guard) {
        return new GuardedFunction<>(function, Kind.MAP, guard);
    }

    public static <I, O> GuardedFunction<I, O> flatMap(FlatMapFunction<I, O> function, StepGuard guard) {
        return new GuardedFunction<>(function, Kind.FLAT_MAP, guard);
    }

    public static <I> GuardedFunction<I, I> filter(FilterFunction<I> function, StepGuard guard) {
        return new GuardedFunction<>(function, Kind.FILTER, guard);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        buffer = new Buffer<>();
        guard.open(getRuntimeContext());
        FunctionUtils.setFunctionRuntimeContext(user, getRuntimeContext());
        FunctionUtils.openFunction(user, openContext);
    }

    @Override
    public void close() throws Exception {
        FunctionUtils.closeFunction(user);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void processElement(I value, Context ctx, Collector<O> out) throws Exception {
        for (int attempt = 1; ; attempt++) {
            O mapped = null;
            boolean keep;
            try {
                switch (kind) {
                    case MAP -> {
                        mapped = ((MapFunction<I, O>) user).map(value);
                        keep = true;
                    }
                    case FILTER -> {
                        keep = ((FilterFunction<I>) user).filter(value);
                        mapped = (O) value;
                    }
                    default -> {
                        buffer.clear();
                        ((FlatMapFunction<I, O>) user).flatMap(value, buffer);
                        keep = false;
                    }
                }
            } catch (Exception e) {
                if (guard.retry(e, attempt)) {
                    continue;
                }
                buffer.clear();
                int attempts = attempt;
                guard.giveUp(value, null, ctx.timestamp(), e, attempts, dead -> ctx.output(deadLetterTag(), dead));
                return;
            }
            if (kind == Kind.FLAT_MAP) {
                buffer.emitTo(out);
            } else if (keep) {
                out.collect(mapped);
            }
            return;
        }
    }

    private OutputTag<DeadLetterRecord> deadLetterTag() {
        OutputTag<DeadLetterRecord> tag = guard.deadLetters();
        if (tag == null) {
            throw new IllegalStateException("step '" + guard.step() + "' has no dead-letter output");
        }
        return tag;
    }

    /** A flatMap's output of one call, held until the call returned. */
    static final class Buffer<T> implements Collector<T> {
        private final List<T> elements = new ArrayList<>();

        @Override
        public void collect(T record) {
            elements.add(record);
        }

        @Override
        public void close() {}

        void clear() {
            elements.clear();
        }

        void emitTo(Collector<T> out) {
            for (int i = 0; i < elements.size(); i++) {
                out.collect(elements.get(i));
            }
            elements.clear();
        }
    }
}
