package io.streamsplit.benchmarks.app;

import io.streamsplit.pipeline.StreamSplitPipeline;
import java.util.Locale;
import org.apache.flink.api.common.functions.MapFunction;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The application whose start-up and footprint {@code AppStartBenchmark} measures: one source
 * ({@code in}, Strings), a map, one sink ({@code out}), no windows, on the embedded MiniCluster,
 * with Actuator's health over HTTP, as a small production service would run. With profile {@code
 * totals}: JSON payments → running total per account → exactly-once sink, what {@code TotalsBenchmark}
 * measures against the same job wired by hand ({@link HandWiredTotalsJob}); with profile {@code transform}:
 * JSON payments → a charge each → JSON, at-least-once.
 */
@SpringBootApplication
public class UppercaseApplication {

    public static void main(String[] args) {
        SpringApplication.run(UppercaseApplication.class, args);
    }

    /** The job as a bean; the SQL variant of this app (benchmarks-sql-app, profile sql) turns it off. */
    @Bean
    @ConditionalOnProperty(name = "uppercase.pipeline", havingValue = "bean", matchIfMissing = true)
    StreamSplitPipeline uppercase() {
        return pipeline -> pipeline.sink(
                "out", pipeline.<String>source("in").map(new Uppercase()).name("uppercase"));
    }

    /** The running total per account (profile {@code totals}), as {@link HandWiredTotalsJob} wires it by hand. */
    @Bean
    @ConditionalOnProperty(name = "uppercase.pipeline", havingValue = "totals")
    StreamSplitPipeline totals() {
        return pipeline -> pipeline.sink("out", RunningTotals.of(pipeline.<Payment>source("in")));
    }

    /** Each payment as a charge (profile {@code transform}), stateless. */
    @Bean
    @ConditionalOnProperty(name = "uppercase.pipeline", havingValue = "transform")
    StreamSplitPipeline transform() {
        return pipeline -> pipeline.sink(
                "out", pipeline.<Payment>source("in").map(new Charge.Of()).name("to charge"));
    }

    static final class Uppercase implements MapFunction<String, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String map(String value) {
            return value.toUpperCase(Locale.ROOT);
        }
    }
}
