package io.streamsplit.boot.autoconfigure.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import io.streamsplit.boot.actuate.JobProgress;
import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.actuate.KafkaSplitsEndpoint;
import io.streamsplit.boot.actuate.SinkFreshness;
import io.streamsplit.boot.actuate.SplitMetricsReader;
import io.streamsplit.boot.actuate.StepOutcomes;
import io.streamsplit.boot.actuate.StreamSplitEndpoint;
import io.streamsplit.boot.actuate.StreamSplitEndpointWebExtension;
import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.actuate.StreamSplitMeters;
import io.streamsplit.boot.actuate.deadletter.DeadLettersEndpoint;
import io.streamsplit.boot.actuate.deadletter.DeadLettersEndpointWebExtension;
import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.autoconfigure.StreamSplitProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.kafka.startup.KafkaStartupCheck;
import io.streamsplit.boot.config.PropertyChecks;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.failure.JobFailures;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator support for the StreamSplit job: the {@code streamsplit} health indicator, the
 * {@code kafkasplits} endpoint and Micrometer meters, each only when its part of Spring Boot is on
 * the classpath. Embedded mode reads split state in-process; remote mode from Flink's REST API.
 */
@AutoConfiguration(after = StreamSplitAutoConfiguration.class)
@ConditionalOnBean(StreamSplitJob.class)
public final class StreamSplitActuatorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    JobProgress streamSplitJobProgress(
            FlinkRestClient rest, ObjectProvider<EmbeddedFlinkCluster> embedded, JobFailures failures) {
        EmbeddedFlinkCluster cluster = embedded.getIfAvailable();
        return new JobProgress(
                rest,
                jobId -> cluster == null ? null : cluster.inProcessMetrics().restarts(jobId),
                cluster == null ? null : cluster::executionGraphInfo,
                failures);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaSplitStates kafkaSplitStates(
            StreamSplitProperties properties,
            StreamSplitJob job,
            FlinkRestClient rest,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ListableBeanFactory beanFactory) {
        Supplier<Map<String, StreamSplitKafkaSource<?>>> sources = () -> sources(beanFactory, job);
        if (properties.getFlink().getMode() != FlinkMode.EMBEDDED) {
            return new KafkaSplitStates(
                    sources,
                    job,
                    SplitMetricsReader.rest(rest),
                    properties.getFlink().getMode().name().toLowerCase(java.util.Locale.ROOT));
        }
        return new KafkaSplitStates(
                sources, job, SplitMetricsReader.inProcess(embedded.getObject().inProcessMetrics()), "embedded");
    }

    /** Every source bean by name: the YAML-configured ones and any the application defines itself. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Map<String, StreamSplitKafkaSource<?>> sources(ListableBeanFactory beanFactory) {
        return new LinkedHashMap<>((Map) beanFactory.getBeansOfType(StreamSplitKafkaSource.class));
    }

    /** The source beans, then the sources the job's pipelines built themselves (SQL tables), by name. */
    private static Map<String, StreamSplitKafkaSource<?>> sources(ListableBeanFactory beanFactory, StreamSplitJob job) {
        Map<String, StreamSplitKafkaSource<?>> all = sources(beanFactory);
        all.putAll(job.sources().notAmong(all));
        return all;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("streamsplit")
    static final class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "streamsplitHealthIndicator")
        StreamSplitHealthIndicator streamsplitHealthIndicator(
                StreamSplitProperties properties,
                StreamSplitJob job,
                KafkaSplitStates splits,
                JobProgress progress,
                ObjectProvider<KafkaStartupCheck> startupCheck,
                ObjectProvider<SinkFreshness> freshness) {
            KafkaStartupCheck check = startupCheck.getIfAvailable();
            return new StreamSplitHealthIndicator(
                    job,
                    properties.getFlink().getCheckpointing().isEnabled()
                            ? properties.getFlink().getCheckpointing().getInterval()
                            : null,
                    StreamSplitHealthIndicator.maxCheckpointAge(
                            properties.getHealth().getMaxCheckpointAge(),
                            properties.getFlink().getCheckpointing().getInterval()),
                    splits,
                    progress,
                    () -> check == null ? List.of() : check.problems(),
                    PropertyChecks.positive(
                            "streamsplit.health.startup-grace",
                            properties.getHealth().getStartupGrace()),
                    PropertyChecks.positive(
                            "streamsplit.health.unreachable-grace",
                            properties.getHealth().getUnreachableGrace()),
                    () -> {
                        SinkFreshness measured = freshness.getIfAvailable();
                        return measured == null ? Map.<String, Object>of() : measured.describeAll();
                    },
                    properties.getHealth().getMaxLag() == null
                            ? null
                            : PropertyChecks.positive(
                                    "streamsplit.health.max-lag",
                                    properties.getHealth().getMaxLag()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @ConditionalOnAvailableEndpoint(KafkaSplitsEndpoint.class)
    static final class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        KafkaSplitsEndpoint kafkaSplitsEndpoint(KafkaSplitStates splits, StreamSplitJob job) {
            return new KafkaSplitsEndpoint(splits, job);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @ConditionalOnAvailableEndpoint(StreamSplitEndpoint.class)
    static final class OperationsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        StreamSplitEndpoint streamSplitEndpoint(
                StreamSplitJob job,
                KafkaSplitStates splits,
                JobProgress progress,
                KafkaSinkFactory sinks,
                ListableBeanFactory beanFactory,
                ObjectProvider<SinkFreshness> freshness,
                ObjectProvider<StepOutcomes> steps) {
            return new StreamSplitEndpoint(
                    () -> sources(beanFactory, job),
                    job,
                    splits,
                    progress,
                    sinks,
                    () -> {
                        SinkFreshness measured = freshness.getIfAvailable();
                        return measured == null ? Map.<String, Object>of() : measured.describeAll();
                    },
                    () -> {
                        StepOutcomes outcomes = steps.getIfAvailable();
                        return outcomes == null ? Map.<String, Object>of() : outcomes.describeAll();
                    });
        }

        @Bean
        @ConditionalOnMissingBean
        StreamSplitEndpointWebExtension streamSplitEndpointWebExtension(StreamSplitEndpoint endpoint) {
            return new StreamSplitEndpointWebExtension(endpoint);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @ConditionalOnAvailableEndpoint(DeadLettersEndpoint.class)
    static final class DeadLettersConfiguration {

        @Bean
        @ConditionalOnMissingBean
        DeadLettersEndpoint deadLettersEndpoint(
                StreamSplitProperties properties,
                ListableBeanFactory beanFactory,
                StreamSplitJob job,
                ObjectProvider<MeterRegistry> meters,
                KafkaClientProperties clientProperties,
                KafkaBootstrapServers bootstrapServers) {
            Map<String, String> yaml = new LinkedHashMap<>();
            properties.getKafka().getSources().forEach((name, source) -> {
                if (source.getDeadLetterTopic() != null) {
                    yaml.put(name, source.getDeadLetterTopic());
                }
            });
            // and those of the tables the SQL statements declare, known once the job is built
            Supplier<Map<String, String>> topics = () -> {
                Map<String, String> all = new LinkedHashMap<>(yaml);
                job.sources().deadLetterTopics().forEach(all::putIfAbsent);
                return all;
            };
            return new DeadLettersEndpoint(
                    () -> sources(beanFactory, job),
                    topics,
                    meters.getIfAvailable(),
                    () -> job.steps().deadLetterTopics(),
                    () -> clientProperties.forClient(
                            KafkaClients.Kind.CONSUMER,
                            bootstrapServers.resolve("streamsplit.kafka.bootstrap-servers", List.of()),
                            Map.of()));
        }

        @Bean
        @ConditionalOnMissingBean
        DeadLettersEndpointWebExtension deadLettersEndpointWebExtension(DeadLettersEndpoint endpoint) {
            return new DeadLettersEndpointWebExtension(endpoint);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static final class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        StreamSplitMeters streamSplitMeters(
                KafkaSplitStates splits, StreamSplitJob job, JobProgress progress, ListableBeanFactory beanFactory) {
            return new StreamSplitMeters(
                    splits,
                    job,
                    progress,
                    List.of(beanFactory.getBeanNamesForType(StreamSplitKafkaSource.class, false, false)));
        }

        /** The id of the job once it is submitted, else {@code null}. */
        private static @Nullable String submittedJobId(StreamSplitJob job) {
            var submission = job.submission();
            return submission.isDone() && !submission.isCompletedExceptionally()
                    ? submission.join().getJobID().toString()
                    : null;
        }

        /** The pipeline steps' outcomes: meters once the job is built, and the endpoint's {@code steps}. */
        @Bean
        @ConditionalOnMissingBean
        StepOutcomes streamSplitStepOutcomes(
                ObjectProvider<EmbeddedFlinkCluster> embedded, FlinkRestClient rest, StreamSplitJob job) {
            Supplier<@Nullable String> jobId = () -> submittedJobId(job);
            EmbeddedFlinkCluster cluster = embedded.getIfAvailable();
            return cluster == null
                    ? StepOutcomes.remote(rest, job.steps(), jobId)
                    : StepOutcomes.embedded(cluster.inProcessMetrics(), job.steps(), jobId);
        }

        /**
         * The sink writers' freshness histograms, read in-process (embedded mode, where the writers also
         * report each record to a timer) or over REST when asked (remote mode).
         */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(KafkaSinkFactory.class)
        SinkFreshness streamSplitSinkFreshness(
                StreamSplitProperties properties,
                KafkaSinkFactory sinks,
                ObjectProvider<EmbeddedFlinkCluster> embedded,
                FlinkRestClient rest,
                StreamSplitJob job) {
            List<String> names = List.copyOf(properties.getKafka().getSinks().keySet());
            Supplier<@Nullable String> jobId = () -> submittedJobId(job);
            EmbeddedFlinkCluster cluster = embedded.getIfAvailable();
            return cluster == null
                    ? SinkFreshness.remote(names, rest, jobId)
                    : SinkFreshness.embedded(sinks.applicationId(), names, cluster.inProcessMetrics(), jobId);
        }
    }
}
