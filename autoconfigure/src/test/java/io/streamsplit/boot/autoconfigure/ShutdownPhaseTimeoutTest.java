package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.job.StreamSplitJob;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * The job's shutdown phase gets the time its stop may take: {@code streamsplit.flink.shutdown.timeout}
 * (a savepoint) plus a margin, when that is longer than Spring's per-phase timeout; other phases keep
 * Spring's.
 */
class ShutdownPhaseTimeoutTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("streamsplit.kafka.startup-check.mode=off")
            .withConfiguration(
                    AutoConfigurations.of(LifecycleAutoConfiguration.class, StreamSplitAutoConfiguration.class));

    @Test
    void theJobsPhaseWaitsForItsShutdownTimeoutPlusTheMargin() {
        runner.withPropertyValues("streamsplit.flink.shutdown.timeout=2m").run(context -> {
            DefaultLifecycleProcessor processor = context.getBean(DefaultLifecycleProcessor.class);
            assertThat(timeout(processor, StreamSplitJob.PHASE)).isEqualTo(125_000L);
            assertThat(timeout(processor, 0))
                    .as("Spring's default for other phases")
                    .isEqualTo(30_000L);
        });
    }

    @Test
    void springsLongerPhaseTimeoutIsKept() {
        runner.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=90s")
                .run(context -> assertThat(
                                timeout(context.getBean(DefaultLifecycleProcessor.class), StreamSplitJob.PHASE))
                        .isEqualTo(90_000L));
    }

    private static long timeout(DefaultLifecycleProcessor processor, int phase) {
        Long millis = ReflectionTestUtils.invokeMethod(processor, "determineShutdownTimeout", phase);
        return millis == null ? -1 : millis;
    }
}
