package io.streamsplit.boot.autoconfigure.tracing;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.tracing.MicrometerRecordTracer;
import io.streamsplit.connector.kafka.trace.RecordTracer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer Tracing (a {@link Tracer} and a {@link Propagator}, e.g. from
 * {@code spring-boot-starter-opentelemetry}) and the embedded MiniCluster, whose sources and sinks
 * run in this JVM: a span per record read and per record written. On a remote cluster the trace
 * headers still travel from input to output records, without spans.
 */
@AutoConfiguration(
        after = StreamSplitAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration"
        })
@ConditionalOnClass(Tracer.class)
@ConditionalOnBean({Tracer.class, Propagator.class, EmbeddedFlinkCluster.class})
public final class StreamSplitTracingAutoConfiguration {

    /** Registers the tracer under the cluster's application id for as long as the context lives. */
    public static final class RecordTracing implements DisposableBean {

        private static final Logger LOG = LoggerFactory.getLogger(RecordTracing.class);

        private final String applicationId;

        RecordTracing(String applicationId, RecordTracer tracer, Tracer micrometerTracer) {
            this.applicationId = applicationId;
            RecordTracer.Registry.register(applicationId, tracer);
            LOG.info(
                    "Tracing records with Micrometer Tracing ({}): a span per record read that carries a traceparent"
                            + " header, and per record each sink writes for it",
                    micrometerTracer.getClass().getSimpleName());
        }

        @Override
        public void destroy() {
            RecordTracer.Registry.unregister(applicationId);
        }
    }

    @Bean
    @ConditionalOnMissingBean
    RecordTracing streamSplitRecordTracing(Tracer tracer, Propagator propagator, EmbeddedFlinkCluster cluster) {
        return new RecordTracing(cluster.applicationId(), new MicrometerRecordTracer(tracer, propagator), tracer);
    }
}
