package io.streamsplit.pipeline.step;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.pipeline.ProcessingErrorPolicy;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.ReduceFunction;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReducingState;
import org.apache.flink.api.common.state.ReducingStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

/**
 * A keyed step's failed attempt leaves nothing behind — value, list, map and reducing state, timers, output and
 * side output — before its retry and before its policy: the function below changes all of them and then throws.
 */
class GuardedKeyedFunctionTest {

    private static final OutputTag<String> AUDIT = new OutputTag<>("audit") {};

    /** The states of one key, in memory; timers as a set. */
    private final Map<String, Object> values = new HashMap<>();

    private final List<Long> list = new ArrayList<>();
    private final Map<Long, String> map = new HashMap<>();
    private final TreeSet<Long> timers = new TreeSet<>();
    private final List<String> out = new ArrayList<>();
    private final List<String> audit = new ArrayList<>();

    /** Adds each number to every kind of state, registers a timer at it, emits, then throws when told to. */
    static final class Everything extends KeyedProcessFunction<String, Long, String> {
        private static final long serialVersionUID = 1L;
        int throwsLeft;
        long failOn;
        private transient ValueState<Long> sum;
        private transient ListState<Long> seen;
        private transient MapState<Long, String> byNumber;
        private transient ReducingState<Long> max;

        Everything(long failOn, int throwsLeft) {
            this.failOn = failOn;
            this.throwsLeft = throwsLeft;
        }

        @Override
        public void open(OpenContext openContext) {
            sum = getRuntimeContext().getState(new ValueStateDescriptor<>("sum", Long.class));
            seen = getRuntimeContext().getListState(new ListStateDescriptor<>("seen", Long.class));
            byNumber = getRuntimeContext().getMapState(new MapStateDescriptor<>("by", Long.class, String.class));
            max = getRuntimeContext().getReducingState(new ReducingStateDescriptor<>("max", Math::max, Long.class));
        }

        @Override
        public void processElement(Long n, Context ctx, Collector<String> out) throws Exception {
            sum.update((sum.value() == null ? 0 : sum.value()) + n);
            seen.add(n);
            byNumber.put(n, "n" + n);
            if (n == failOn) {
                byNumber.remove(100L);
            }
            max.add(n);
            ctx.timerService().registerEventTimeTimer(n);
            ctx.output(AUDIT, "audit " + n);
            out.collect(ctx.getCurrentKey() + " " + sum.value());
            if (n == failOn && throwsLeft-- > 0) {
                throw new IllegalStateException("unexpected " + n);
            }
        }
    }

    private GuardedKeyedFunction<String, Long, String> open(Everything user, StepErrorRules rules) throws Exception {
        GuardedKeyedFunction<String, Long, String> guarded =
                new GuardedKeyedFunction<>(user, new StepGuard("everything", rules, null));
        guarded.setRuntimeContext(runtimeContext());
        guarded.open(new OpenContext() {});
        return guarded;
    }

    private void call(GuardedKeyedFunction<String, Long, String> function, long n) throws Exception {
        function.processElement(
                n,
                function.new Context() {
                    @Override
                    public Long timestamp() {
                        return n;
                    }

                    @Override
                    public TimerService timerService() {
                        return timerService;
                    }

                    @Override
                    public <X> void output(OutputTag<X> outputTag, X value) {
                        audit.add(String.valueOf(value));
                    }

                    @Override
                    public String getCurrentKey() {
                        return "k";
                    }
                },
                new Collector<>() {
                    @Override
                    public void collect(String record) {
                        out.add(record);
                    }

                    @Override
                    public void close() {}
                });
    }

    @Test
    void aFailedAttemptIsUndoneBeforeItsRetry() throws Exception {
        StepErrorRules rules =
                StepErrorRules.builder().retries(1).backOff(Duration.ZERO).build();
        GuardedKeyedFunction<String, Long, String> function = open(new Everything(2, 1), rules);
        call(function, 1);
        map.put(100L, "hundred");
        call(function, 2); // throws once (after removing 100: put back), then goes through (removes it)
        assertThat(values).containsEntry("sum", 3L);
        assertThat(list).containsExactly(1L, 2L);
        assertThat(map).containsOnly(Map.entry(1L, "n1"), Map.entry(2L, "n2"));
        assertThat(values).containsEntry("max", 2L);
        assertThat(timers).containsExactly(1L, 2L);
        assertThat(out).containsExactly("k 1", "k 3");
        assertThat(audit).containsExactly("audit 1", "audit 2");
    }

    @Test
    void aSkippedRecordLeavesNoTrace() throws Exception {
        StepErrorRules rules = StepErrorRules.builder()
                .retries(2)
                .backOff(Duration.ZERO)
                .policy(ProcessingErrorPolicy.SKIP)
                .build();
        GuardedKeyedFunction<String, Long, String> function = open(new Everything(5, Integer.MAX_VALUE), rules);
        call(function, 3);
        map.put(100L, "hundred");
        call(function, 5); // fails three times (each after removing 100), skipped
        call(function, 4);
        assertThat(values).containsEntry("sum", 7L).containsEntry("max", 4L);
        assertThat(list).containsExactly(3L, 4L);
        assertThat(map).containsOnly(Map.entry(3L, "n3"), Map.entry(4L, "n4"), Map.entry(100L, "hundred"));
        assertThat(timers).containsExactly(3L, 4L);
        assertThat(out).containsExactly("k 3", "k 7");
        assertThat(audit).containsExactly("audit 3", "audit 4");
    }

    private final TimerService timerService = new TimerService() {
        @Override
        public long currentProcessingTime() {
            return 0;
        }

        @Override
        public long currentWatermark() {
            return Long.MIN_VALUE;
        }

        @Override
        public void registerProcessingTimeTimer(long time) {
            timers.add(-time);
        }

        @Override
        public void registerEventTimeTimer(long time) {
            timers.add(time);
        }

        @Override
        public void deleteProcessingTimeTimer(long time) {
            timers.remove(-time);
        }

        @Override
        public void deleteEventTimeTimer(long time) {
            timers.remove(time);
        }
    };

    /** A runtime context whose keyed state is this test's maps, for one key. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private RuntimeContext runtimeContext() {
        return (RuntimeContext) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {RuntimeContext.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getMetricGroup":
                            return UnregisteredMetricsGroup.createOperatorMetricGroup();
                        case "getUserCodeClassLoader":
                            return getClass().getClassLoader();
                        case "getState": {
                            ValueStateDescriptor<Object> d = (ValueStateDescriptor<Object>) args[0];
                            d.initializeSerializerUnlessSet(new ExecutionConfig());
                            return new ValueState<Object>() {
                                public Object value() {
                                    return values.get(d.getName());
                                }

                                public void update(Object v) {
                                    values.put(d.getName(), v);
                                }

                                public void clear() {
                                    values.remove(d.getName());
                                }
                            };
                        }
                        case "getListState":
                            return new ListState<Long>() {
                                public Iterable<Long> get() {
                                    return List.copyOf(list);
                                }

                                public void add(Long v) {
                                    list.add(v);
                                }

                                public void update(List<Long> vs) {
                                    list.clear();
                                    list.addAll(vs);
                                }

                                public void addAll(List<Long> vs) {
                                    list.addAll(vs);
                                }

                                public void clear() {
                                    list.clear();
                                }
                            };
                        case "getMapState":
                            return new MapState<Long, String>() {
                                public String get(Long k) {
                                    return map.get(k);
                                }

                                public void put(Long k, String v) {
                                    map.put(k, v);
                                }

                                public void putAll(Map<Long, String> m) {
                                    map.putAll(m);
                                }

                                public void remove(Long k) {
                                    map.remove(k);
                                }

                                public boolean contains(Long k) {
                                    return map.containsKey(k);
                                }

                                public Iterable<Map.Entry<Long, String>> entries() {
                                    return map.entrySet();
                                }

                                public Iterable<Long> keys() {
                                    return map.keySet();
                                }

                                public Iterable<String> values() {
                                    return map.values();
                                }

                                public Iterator<Map.Entry<Long, String>> iterator() {
                                    return map.entrySet().iterator();
                                }

                                public boolean isEmpty() {
                                    return map.isEmpty();
                                }

                                public void clear() {
                                    map.clear();
                                }
                            };
                        case "getReducingState": {
                            ReducingStateDescriptor<Long> d = (ReducingStateDescriptor<Long>) args[0];
                            ReduceFunction<Long> reduce = d.getReduceFunction();
                            return new ReducingState<Long>() {
                                public Long get() {
                                    return (Long) values.get(d.getName());
                                }

                                public void add(Long v) throws Exception {
                                    Long old = get();
                                    values.put(d.getName(), old == null ? v : reduce.reduce(old, v));
                                }

                                public void clear() {
                                    values.remove(d.getName());
                                }
                            };
                        }
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }
}
