package io.streamsplit.pipeline.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.pipeline.ProcessingErrorPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

/**
 * A guarded map or flatMap, called as Flink calls it: a failed attempt is retried and emits nothing; the policy
 * applies after the last retry; an exception of the operators behind the step is theirs and passes through.
 */
class GuardedFunctionTest {

    private static final StepErrorRules TWO_RETRIES =
            StepErrorRules.builder().retries(2).backOff(Duration.ZERO).build();

    private final List<String> out = new ArrayList<>();
    private final Collector<String> collector = new Collector<>() {
        @Override
        public void collect(String record) {
            if (record.equals("explode")) {
                throw new IllegalStateException("the sink behind the step failed");
            }
            out.add(record);
        }

        @Override
        public void close() {}
    };

    private static <I, O> void call(GuardedFunction<I, O> function, I value, Collector<O> collector) throws Exception {
        function.processElement(
                value,
                function.new Context() {
                    @Override
                    public Long timestamp() {
                        return 1L;
                    }

                    @Override
                    public TimerService timerService() {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public <X> void output(OutputTag<X> outputTag, X value) {
                        throw new UnsupportedOperationException();
                    }
                },
                collector);
    }

    @Test
    void aMapThatFailsOnceIsRetriedAndEmitsOnce() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        MapFunction<String, String> flaky = value -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("lookup timed out");
            }
            return value.toUpperCase();
        };
        call(GuardedFunction.map(flaky, new StepGuard("upper", TWO_RETRIES, null)), "a", collector);
        assertThat(calls).hasValue(2);
        assertThat(out).containsExactly("A");
    }

    @Test
    void aFlatMapsFailedAttemptEmitsNothing() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FlatMapFunction<String, String> halfway = (value, into) -> {
            into.collect(value + "-1");
            if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException("failed after emitting one");
            }
            into.collect(value + "-2");
        };
        call(GuardedFunction.flatMap(halfway, new StepGuard("split", TWO_RETRIES, null)), "a", collector);
        assertThat(calls).hasValue(3);
        assertThat(out).containsExactly("a-1", "a-2");
    }

    @Test
    void skipDropsTheElementAfterTheRetries() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        StepErrorRules skip =
                TWO_RETRIES.toBuilder().policy(ProcessingErrorPolicy.SKIP).build();
        MapFunction<String, String> broken = value -> {
            calls.incrementAndGet();
            throw new IllegalStateException("no price for " + value);
        };
        call(GuardedFunction.map(broken, new StepGuard("price", skip, null)), "a", collector);
        assertThat(calls).hasValue(3);
        assertThat(out).isEmpty();
    }

    @Test
    void failThrowsNamingTheStepTheAttemptsAndTheException() {
        MapFunction<String, String> broken = value -> {
            throw new IllegalStateException("no price for " + value);
        };
        assertThatThrownBy(() ->
                        call(GuardedFunction.map(broken, new StepGuard("price", TWO_RETRIES, null)), "a", collector))
                .isInstanceOf(StepFailedException.class)
                .hasMessageContaining("Step 'price' failed on an element (not in its source's chain")
                .hasMessageContaining("after 3 attempts: java.lang.IllegalStateException: no price for a")
                .hasMessageContaining("streamsplit.processing-errors.steps.price.policy")
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void anExceptionOfTheOperatorsBehindTheStepIsNotTheSteps() {
        AtomicInteger calls = new AtomicInteger();
        MapFunction<String, String> fine = value -> {
            calls.incrementAndGet();
            return value;
        };
        StepErrorRules skip =
                TWO_RETRIES.toBuilder().policy(ProcessingErrorPolicy.SKIP).build();
        assertThatThrownBy(() -> call(GuardedFunction.map(fine, new StepGuard("id", skip, null)), "explode", collector))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the sink behind the step failed");
        assertThat(calls).as("not retried, not skipped").hasValue(1);
    }

    @Test
    void theRulesRefuseWhatCannotWork() {
        assertThatThrownBy(() -> StepErrorRules.builder().retries(-1))
                .isInstanceOf(InvalidStepErrorsException.class)
                .satisfies(e ->
                        assertThat(((InvalidStepErrorsException) e).setting()).isEqualTo("retries"));
        assertThatThrownBy(() -> StepErrorRules.builder().deadLetterTopic("no spaces"))
                .hasMessageContaining("not a Kafka topic name");
        assertThatThrownBy(() -> StepErrorRules.builder()
                        .backOff(Duration.ofSeconds(5))
                        .maxBackOff(Duration.ofSeconds(1))
                        .build())
                .hasMessageContaining("max-back-off");
        assertThatThrownBy(() -> StepErrorRules.builder().backOffMultiplier(0.5))
                .hasMessageContaining("back-off-multiplier");
    }
}
