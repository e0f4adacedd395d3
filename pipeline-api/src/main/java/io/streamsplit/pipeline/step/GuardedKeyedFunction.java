package io.streamsplit.pipeline.step;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReducingState;
import org.apache.flink.api.common.state.ReducingStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.jspecify.annotations.Nullable;

/**
 * A user's {@link KeyedProcessFunction} as a step: each element's call is guarded by a {@link StepGuard}, and a
 * failed attempt leaves nothing behind — its state changes are undone ({@link StateJournal}), the timers it
 * registered or deleted are put back, and its output and side output are dropped (both go on only once the call
 * returned). The user's function sees a runtime context whose keyed state is journaled.
 *
 * <pre>{@code
 * keyed.process(new GuardedKeyedFunction<>(new Totals(), guard), outputType).name("totals").uid("totals");
 * }</pre>
 */
public final class GuardedKeyedFunction<K, I, O> extends KeyedProcessFunction<K, I, O> {

    private static final long serialVersionUID = 1L;

    private final KeyedProcessFunction<K, I, O> user;
    private final StepGuard guard;
    private transient @Nullable StateJournal journal;
    private transient @Nullable Attempt attempt;

    public GuardedKeyedFunction(KeyedProcessFunction<K, I, O> user, StepGuard guard) {
        this.user = user;
        this.guard = guard;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        guard.open(getRuntimeContext());
        StateJournal states = new StateJournal();
        journal = states;
        attempt = new Attempt();
        user.setRuntimeContext(journaled(getRuntimeContext(), states));
        user.open(openContext);
    }

    @Override
    public void close() throws Exception {
        user.close();
    }

    @Override
    public void processElement(I value, Context ctx, Collector<O> out) throws Exception {
        StateJournal states = java.util.Objects.requireNonNull(journal, "opened");
        Attempt call = java.util.Objects.requireNonNull(attempt, "opened");
        for (int tries = 1; ; tries++) {
            states.begin();
            call.begin(ctx);
            try {
                user.processElement(value, call.context, call.output);
            } catch (Exception e) {
                states.rollback();
                call.rollback();
                if (guard.retry(e, tries)) {
                    continue;
                }
                OutputTag<DeadLetterRecord> tag = guard.deadLetters();
                guard.giveUp(value, ctx.getCurrentKey(), ctx.timestamp(), e, tries, dead -> {
                    if (tag != null) {
                        ctx.output(tag, dead);
                    }
                });
                return;
            }
            states.commit();
            call.commit(out);
            return;
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {
        StateJournal states = java.util.Objects.requireNonNull(journal, "opened");
        states.begin();
        try {
            user.onTimer(
                    timestamp,
                    user.new OnTimerContext() {
                        @Override
                        public TimeDomain timeDomain() {
                            return ctx.timeDomain();
                        }

                        @Override
                        public K getCurrentKey() {
                            return ctx.getCurrentKey();
                        }

                        @Override
                        public Long timestamp() {
                            return ctx.timestamp();
                        }

                        @Override
                        public TimerService timerService() {
                            return ctx.timerService();
                        }

                        @Override
                        public <X> void output(OutputTag<X> outputTag, X value) {
                            ctx.output(outputTag, value);
                        }
                    },
                    out);
        } catch (Exception e) {
            states.rollback();
            throw e; // a timer has no record to skip or dead-letter: the task fails as an unguarded one would
        }
        states.commit();
    }

    /** One call's context, output and timer changes, held until it returned. */
    private final class Attempt {
        private @Nullable Context outer;
        private final List<O> collected = new ArrayList<>();
        private final List<Object[]> sideOutputs = new ArrayList<>();
        private final List<long[]> timers = new ArrayList<>(); // {domain 0/1, register 1 / delete 0, time}

        final Collector<O> output = new Collector<>() {
            @Override
            public void collect(O record) {
                collected.add(record);
            }

            @Override
            public void close() {}
        };

        final TimerService timerService = new TimerService() {
            @Override
            public long currentProcessingTime() {
                return outer().timerService().currentProcessingTime();
            }

            @Override
            public long currentWatermark() {
                return outer().timerService().currentWatermark();
            }

            @Override
            public void registerProcessingTimeTimer(long time) {
                outer().timerService().registerProcessingTimeTimer(time);
                timers.add(new long[] {0, 1, time});
            }

            @Override
            public void registerEventTimeTimer(long time) {
                outer().timerService().registerEventTimeTimer(time);
                timers.add(new long[] {1, 1, time});
            }

            @Override
            public void deleteProcessingTimeTimer(long time) {
                outer().timerService().deleteProcessingTimeTimer(time);
                timers.add(new long[] {0, 0, time});
            }

            @Override
            public void deleteEventTimeTimer(long time) {
                outer().timerService().deleteEventTimeTimer(time);
                timers.add(new long[] {1, 0, time});
            }
        };

        final KeyedProcessFunction<K, I, O>.Context context = user.new Context() {
            @Override
            public Long timestamp() {
                return outer().timestamp();
            }

            @Override
            public TimerService timerService() {
                return timerService;
            }

            @Override
            public <X> void output(OutputTag<X> outputTag, X value) {
                sideOutputs.add(new Object[] {outputTag, value});
            }

            @Override
            public K getCurrentKey() {
                return outer().getCurrentKey();
            }
        };

        private Context outer() {
            return java.util.Objects.requireNonNull(outer, "in a call");
        }

        void begin(Context ctx) {
            outer = ctx;
            collected.clear();
            sideOutputs.clear();
            timers.clear();
        }

        @SuppressWarnings("unchecked")
        void commit(Collector<O> out) {
            Context ctx = outer();
            for (int i = 0; i < collected.size(); i++) {
                out.collect(collected.get(i));
            }
            for (Object[] side : sideOutputs) {
                ctx.output((OutputTag<Object>) side[0], side[1]);
            }
            collected.clear();
            sideOutputs.clear();
            timers.clear();
        }

        /** Undoes the timer changes, newest first; drops the output. */
        void rollback() {
            TimerService service = outer().timerService();
            for (int i = timers.size() - 1; i >= 0; i--) {
                long[] t = timers.get(i);
                boolean eventTime = t[0] == 1;
                boolean registered = t[1] == 1;
                if (registered == eventTime) {
                    if (registered) {
                        service.deleteEventTimeTimer(t[2]);
                    } else {
                        service.registerProcessingTimeTimer(t[2]);
                    }
                } else if (registered) {
                    service.deleteProcessingTimeTimer(t[2]);
                } else {
                    service.registerEventTimeTimer(t[2]);
                }
            }
            collected.clear();
            sideOutputs.clear();
            timers.clear();
        }
    }

    /** {@code context} with its keyed state (the first API's) journaled; the async state API is refused. */
    private static RuntimeContext journaled(RuntimeContext context, StateJournal journal) {
        return (RuntimeContext) Proxy.newProxyInstance(
                GuardedKeyedFunction.class.getClassLoader(),
                new Class<?>[] {RuntimeContext.class},
                (proxy, method, args) -> {
                    Object result = invoke(context, method, args);
                    Class<?> descriptor = method.getParameterCount() == 1 ? method.getParameterTypes()[0] : null;
                    if (descriptor == ValueStateDescriptor.class) {
                        return journal.value(
                                (ValueState<Object>) java.util.Objects.requireNonNull(result, "state"),
                                ((ValueStateDescriptor<Object>) args[0]).getSerializer());
                    } else if (descriptor == ListStateDescriptor.class) {
                        return journal.list((ListState<Object>) java.util.Objects.requireNonNull(result, "state"));
                    } else if (descriptor == MapStateDescriptor.class) {
                        return journal.map(
                                (MapState<Object, Object>) java.util.Objects.requireNonNull(result, "state"));
                    } else if (descriptor == ReducingStateDescriptor.class) {
                        return journal.reducing(
                                (ReducingState<Object>) java.util.Objects.requireNonNull(result, "state"));
                    } else if (method.getName().startsWith("get")
                            && method.getName().endsWith("State")) {
                        throw new UnsupportedOperationException("A guarded step cannot undo a failed attempt's changes"
                                + " to " + method.getReturnType().getName() + ": use ValueState, ListState, MapState or"
                                + " ReducingState in a step's keyed function, or Flink's own process() for this one");
                    }
                    return result;
                });
    }

    private static @Nullable Object invoke(Object target, Method method, Object @Nullable [] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
