package io.streamsplit.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.streamsplit.boot.actuate.JobSplits;
import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.actuate.KafkaSplitsEndpoint;
import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.actuate.StreamSplitMeters;
import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Which Actuator parts appear, and when they back off; no job runs. */
class StreamSplitActuatorAutoConfigurationTest {

    /** These contexts have no Kafka to talk to: the startup check (tested against a real broker elsewhere) is off. */
    private static final String NO_KAFKA_CHECK = "streamsplit.kafka.startup-check.mode=off";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(NO_KAFKA_CHECK)
            .withConfiguration(AutoConfigurations.of(
                    StreamSplitAutoConfiguration.class, StreamSplitActuatorAutoConfiguration.class))
            .withPropertyValues("streamsplit.kafka.bootstrap-servers=b:1");

    @Test
    void healthIndicatorSplitStatesAndMetersByDefaultButTheEndpointOnlyWhenExposed() {
        runner.run(context -> {
            assertThat(context)
                    .hasSingleBean(StreamSplitHealthIndicator.class)
                    .hasSingleBean(KafkaSplitStates.class)
                    .hasSingleBean(StreamSplitMeters.class)
                    .doesNotHaveBean(KafkaSplitsEndpoint.class);
            assertThat(context.getBean("streamsplitHealthIndicator")).isInstanceOf(StreamSplitHealthIndicator.class);
        });
        runner.withPropertyValues("management.endpoints.web.exposure.include=kafkasplits")
                .run(context -> assertThat(context).hasSingleBean(KafkaSplitsEndpoint.class));
    }

    @Test
    void healthIndicatorCanBeTurnedOff() {
        runner.withPropertyValues("management.health.streamsplit.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(StreamSplitHealthIndicator.class));
    }

    @Test
    void withoutMicrometerThereAreNoMetersAndTheRestStillWorks() {
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(StreamSplitMeters.class)
                        .hasSingleBean(StreamSplitHealthIndicator.class));
    }

    @Test
    void withoutPipelinesTheJobIsNotSubmittedAndHealthSaysWhyWithoutGoingDown() {
        runner.run(context -> {
            var health = context.getBean(HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("status", "NOT_SUBMITTED");
            assertThat(health.getDetails().get("reason").toString()).contains("no StreamSplitPipeline beans");
            JobSplits splits = context.getBean(KafkaSplitStates.class).read();
            assertThat(splits.status()).isEqualTo("NOT_SUBMITTED");
            assertThat(splits.message()).contains("no StreamSplitPipeline beans");
        });
    }

    @Test
    void remoteModeReadsFromTheConfiguredCluster() {
        runner.withPropertyValues(
                        "streamsplit.flink.mode=remote",
                        "streamsplit.flink.remote.host=jm",
                        "streamsplit.flink.remote.port=18081")
                .run(context -> {
                    assertThat(context).hasSingleBean(KafkaSplitStates.class);
                    assertThat(context.getBean(KafkaSplitStates.class).read().mode())
                            .isEqualTo("remote");
                });
    }
}
