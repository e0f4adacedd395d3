package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.LinkedMultiValueMap;

/**
 * Remote mode: what goes into the job must load on a Flink cluster that has Flink but not Spring.
 * The check runs at startup, before the cluster is asked anything (the JobManager address here
 * answers nothing), and names the bean and field, or the operator and the class.
 */
class RemoteShippingTest {

    /** These contexts have no Kafka to talk to: the startup check (tested against a real broker elsewhere) is off. */
    private static final String NO_KAFKA_CHECK = "streamsplit.kafka.startup-check.mode=off";

    private final ApplicationContextRunner remote = new ApplicationContextRunner()
            .withPropertyValues(NO_KAFKA_CHECK)
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
            .withPropertyValues(
                    "streamsplit.kafka.bootstrap-servers=b:1",
                    "streamsplit.kafka.embedded.enabled=false",
                    "streamsplit.kafka.sources.orders.topics=orders",
                    "streamsplit.kafka.sinks.out.topic=out",
                    "streamsplit.flink.mode=remote",
                    "streamsplit.flink.remote.host=localhost",
                    "streamsplit.flink.remote.port=1");

    @Test
    void aDeserializerHoldingASpringObjectNamesTheBeanAndTheField() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        remote.withUserConfiguration(SpringHoldingDeserializerConfiguration.class)
                .run(context -> analysis[0] = FailureReports.analyze(context.getStartupFailure()));
        assertThat(analysis[0].getDescription())
                .contains(
                        "streamsplit.kafka.sources.orders.deserializer",
                        "bean 'headerAware'",
                        "shipped to the Flink cluster",
                        "field 'headerAware.defaults",
                        "org.springframework.util.LinkedMultiValueMap",
                        "spring-core");
        assertThat(analysis[0].getAction()).contains("transient", "Spring");
    }

    @Test
    void aPipelineLambdaInAClassWithSpringSignaturesNamesTheOperatorAndTheClass() {
        remote.withUserConfiguration(StringsDeserializer.class, SpringTypedPipelineConfiguration.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("Operator 'Map'")
                            .hasMessageContaining(SpringTypedPipelineConfiguration.class.getName()
                                    + " needs org.springframework.core.env.Environment")
                            .hasMessageContaining("Move the function into a class");
                });
    }

    @Test
    void thePipelineLambdaInASpringFreeClassPasses() {
        remote.withUserConfiguration(StringsDeserializer.class, SpringFreePipeline.class)
                .run(context -> {
                    // the class check passed: what stops this start is the next step, a cluster at port 1
                    FailureAnalysis analysis = FailureReports.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .contains("streamsplit.flink.remote.host", "cannot reach the Flink cluster's REST API")
                            .doesNotContain("cannot be loaded on the Flink cluster");
                });
    }

    /** Serializable, but a Spring class: the cluster cannot deserialize it. */
    static class HeaderAwareDeserializer implements KafkaRecordDeserializer<String> {

        private final LinkedMultiValueMap<String, String> defaults = new LinkedMultiValueMap<>();

        @Override
        public String deserialize(ConsumerRecord<byte[], byte[]> record) {
            return defaults.getFirst("prefix") + new String(record.value(), StandardCharsets.UTF_8);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SpringHoldingDeserializerConfiguration {

        @Bean
        HeaderAwareDeserializer headerAware() {
            return new HeaderAwareDeserializer();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class StringsDeserializer {

        @Bean
        SimpleStringSchema strings() {
            return new SimpleStringSchema();
        }
    }

    /** A method of this class takes a Spring {@link Environment}: its lambdas cannot be rebuilt on the cluster. */
    @Configuration(proxyBeanMethods = false)
    static class SpringTypedPipelineConfiguration {

        @Bean
        StreamSplitPipeline upper(Environment environment) {
            return pipeline ->
                    pipeline.sink("out", pipeline.<String>source("orders").map(String::toUpperCase));
        }
    }

    /** The same pipeline in a class whose signatures mention only StreamSplit and Flink types. */
    @Configuration(proxyBeanMethods = false)
    static class SpringFreePipeline {

        @Bean
        StreamSplitPipeline upper() {
            return pipeline ->
                    pipeline.sink("out", pipeline.<String>source("orders").map(String::toUpperCase));
        }
    }
}
