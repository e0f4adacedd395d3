package io.streamsplit.benchmarks.app;

import io.streamsplit.pipeline.StreamSplitPipeline;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.functions.MapFunction;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.context.annotation.Bean;

/**
 * The application whose start-up and footprint {@code AppStartBenchmark} measures: one source
 * ({@code in}, Strings), a map, one sink ({@code out}), no windows, on the embedded MiniCluster,
 * with Actuator's health over HTTP, as a small production service would run. With profile {@code
 * totals}: JSON payments → running total per account → exactly-once sink, what {@code TotalsBenchmark}
 * measures against the same job wired by hand ({@link HandWiredTotalsJob}); with profile {@code transform}:
 * JSON payments → a charge each → JSON, at-least-once; with profile {@code windows}: one-minute tumbling
 * windows on event time per account, exactly-once ({@link WindowTotals}).
 */
@SpringBootApplication
public class UppercaseApplication {

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(UppercaseApplication.class);
        int steps = Integer.getInteger("benchmark.startup-steps", 0);
        BufferingApplicationStartup startup = steps > 0 ? new BufferingApplicationStartup(100_000) : null;
        if (startup != null) {
            application.setApplicationStartup(startup);
        }
        application.run(args);
        if (startup != null) {
            printSlowestSteps(startup, steps);
        }
    }

    /**
     * Where the context's start-up went ({@code -Dbenchmark.startup-steps=N}): the {@code N} slowest steps
     * Spring recorded (bean instantiations, configuration classes, the refresh's phases), each with its own
     * time (its children's taken out), so the list adds up instead of counting a parent and its children.
     */
    private static void printSlowestSteps(BufferingApplicationStartup startup, int steps) {
        List<TimelineEvent> events = startup.getBufferedTimeline().getEvents();
        Map<Long, Duration> childTime = new HashMap<>();
        for (var event : events) {
            Long parent = event.getStartupStep().getParentId();
            if (parent != null) {
                childTime.merge(parent, event.getDuration(), Duration::plus);
            }
        }
        System.out.println("Start-up steps, slowest first (own time; children's taken out):");
        events.stream()
                .map(event -> Map.entry(
                        event,
                        event.getDuration()
                                .minus(childTime.getOrDefault(
                                        event.getStartupStep().getId(), Duration.ZERO))))
                .sorted(Map.Entry.<TimelineEvent, Duration>comparingByValue().reversed())
                .limit(steps)
                .forEach(entry -> {
                    StringBuilder tags = new StringBuilder();
                    entry.getKey()
                            .getStartupStep()
                            .getTags()
                            .forEach(tag -> tags.append(' ')
                                    .append(tag.getKey())
                                    .append('=')
                                    .append(tag.getValue()));
                    System.out.printf(
                            Locale.ROOT,
                            "  %6d ms  %s%s%n",
                            entry.getValue().toMillis(),
                            entry.getKey().getStartupStep().getName(),
                            tags);
                });
    }

    /** The job as a bean; the SQL variant of this app (benchmarks-sql-app, profile sql) turns it off. */
    @Bean
    @ConditionalOnProperty(name = "uppercase.pipeline", havingValue = "bean", matchIfMissing = true)
    StreamSplitPipeline uppercase() {
        return pipeline -> pipeline.sink(
                "out", pipeline.<String>source("in").map(new Uppercase()).name("uppercase"));
    }

    /**
     * The same map as a step ({@code --uppercase.pipeline=step}): what guarding each record's call costs
     * ({@code PipelineBenchmark --variants plain --b-args --uppercase.pipeline=step}).
     */
    @Bean
    @ConditionalOnProperty(name = "uppercase.pipeline", havingValue = "step")
    StreamSplitPipeline uppercaseStep() {
        return pipeline ->
                pipeline.sink("out", pipeline.step("uppercase").map(pipeline.<String>source("in"), new Uppercase()));
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

    /** One-minute tumbling windows on event time per account (profile {@code windows}). */
    @Bean
    @ConditionalOnProperty(name = "uppercase.pipeline", havingValue = "windows")
    StreamSplitPipeline windows() {
        return pipeline -> pipeline.sink("out", WindowTotals.of(pipeline.<Payment>source("in")));
    }

    static final class Uppercase implements MapFunction<String, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String map(String value) {
            return value.toUpperCase(Locale.ROOT);
        }
    }
}
