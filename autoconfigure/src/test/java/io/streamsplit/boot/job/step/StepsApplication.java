package io.streamsplit.boot.job.step;

import io.streamsplit.boot.kafka.exactlyonce.FailureInjector;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Source {@code ids} ("id-0", "id-1", …) → step {@code parse} (a map that throws for the ids {@link Parse} is told
 * to) → a failure injector outside the step → sink {@code out}; or, with {@code test.pipeline=keyed}, a keyed step
 * {@code totals} summing per key. State lives in static maps keyed by the run: tasks restart in this JVM with fresh
 * instances.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class StepsApplication {

    /**
     * The application's settings for run {@code run} on the broker at {@code bootstrapServers}: source {@code ids}
     * reads {@code <run>-in} (strings, from the earliest offset), sink {@code out} writes {@code <run>-out},
     * parallelism 2, checkpoints every 500 ms; tests add or override what they vary.
     */
    public static String[] properties(String run, String bootstrapServers) {
        return new String[] {
            "spring.application.name=" + run,
            "test.run=" + run,
            "streamsplit.kafka.embedded.enabled=false",
            "streamsplit.kafka.bootstrap-servers=" + bootstrapServers,
            "streamsplit.kafka.sources.ids.topics=" + run + "-in",
            "streamsplit.kafka.sources.ids.format=string",
            "streamsplit.kafka.sources.ids.starting-offsets=earliest",
            "streamsplit.kafka.sinks.out.topic=" + run + "-out",
            "streamsplit.kafka.sinks.out.serializer=utf8",
            "streamsplit.flink.parallelism=2",
            "streamsplit.flink.checkpointing.interval=500ms"
        };
    }

    /** Attempts per value of a run ("run/id-7" → attempts). */
    static final Map<String, AtomicLong> ATTEMPTS = new ConcurrentHashMap<>();

    @Bean
    SerializationSchema<String> utf8() {
        return value -> value.getBytes(StandardCharsets.UTF_8);
    }

    @Bean
    StreamSplitPipeline steps(
            @Value("${test.run}") String run,
            @Value("${test.pipeline:map}") String kind,
            @Value("${test.fail-every:1000}") int failEvery,
            @Value("${test.transient:false}") boolean transientFailures,
            @Value("${test.exception:state}") String exception,
            @Value("${test.fail-after-records:}") long[] failAfterRecords) {
        return pipeline -> {
            DataStream<String> ids = pipeline.source("ids");
            if (kind.equals("keyed")) {
                DataStream<String> totals = pipeline.step("totals")
                        .process(ids.keyBy(id -> Integer.parseInt(id.substring(3)) % 4), new Totals(failEvery));
                pipeline.sink("out", totals);
                return;
            }
            DataStream<String> parsed =
                    pipeline.step("parse").map(ids, new Parse(run, failEvery, transientFailures, exception));
            pipeline.sink(
                    "out",
                    parsed.map(new FailureInjector(run, failAfterRecords, 0)).name("inject failures"));
        };
    }

    /** Throws for every {@code failEvery}-th id (id-999, id-1999, …), or only on its first attempt when transient. */
    static final class Parse implements MapFunction<String, String> {
        private static final long serialVersionUID = 1L;
        private final String run;
        private final int failEvery;
        private final boolean transientFailures;
        private final String exception;

        Parse(String run, int failEvery, boolean transientFailures, String exception) {
            this.run = run;
            this.failEvery = failEvery;
            this.transientFailures = transientFailures;
            this.exception = exception;
        }

        @Override
        public String map(String id) {
            long n = Long.parseLong(id.substring(3));
            long attempt = ATTEMPTS.computeIfAbsent(run + "/" + id, k -> new AtomicLong())
                    .incrementAndGet();
            if (n % failEvery == failEvery - 1 && (!transientFailures || attempt == 1)) {
                throw exception.equals("argument")
                        ? new IllegalArgumentException("cannot parse " + id)
                        : new IllegalStateException("no price for " + id);
            }
            return id;
        }
    }

    /**
     * Per key (id mod 4): the sum of the ids seen, in a ValueState, and the ids in a ListState; emits
     * "key=sum/count". For every {@code failEvery}-th id it changes both states and a timer first, emits, and then
     * throws: none of it may stay.
     */
    static final class Totals extends KeyedProcessFunction<Integer, String, String> {
        private static final long serialVersionUID = 1L;
        private final int failEvery;
        private transient ValueState<Long> sum;
        private transient ListState<Long> seen;

        Totals(int failEvery) {
            this.failEvery = failEvery;
        }

        @Override
        public void open(OpenContext openContext) {
            sum = getRuntimeContext().getState(new ValueStateDescriptor<>("sum", Long.class));
            seen = getRuntimeContext().getListState(new ListStateDescriptor<>("seen", Long.class));
        }

        @Override
        public void processElement(String id, Context ctx, Collector<String> out) throws Exception {
            long n = Long.parseLong(id.substring(3));
            long total = (sum.value() == null ? 0 : sum.value()) + n;
            sum.update(total);
            seen.add(n);
            long count = 0;
            for (Long ignored : seen.get()) {
                count++;
            }
            out.collect(ctx.getCurrentKey() + "=" + total + "/" + count);
            if (n % failEvery == failEvery - 1) {
                throw new IllegalStateException("unexpected id " + id);
            }
        }
    }

    /** The ids of a run a step was told to fail on: id-(k·failEvery − 1). */
    static Set<String> failing(int count, int failEvery) {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        for (int i = failEvery - 1; i < count; i += failEvery) {
            ids.add("id-" + i);
        }
        return ids;
    }
}
