package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.autoconfigure.flink.FlinkApplicationMode;
import io.streamsplit.boot.autoconfigure.flink.FlinkConfigurationMapper;
import io.streamsplit.boot.autoconfigure.flink.FlinkJobDefinition;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import io.streamsplit.boot.autoconfigure.flink.StreamExecutionEnvironmentCustomizer;
import io.streamsplit.boot.autoconfigure.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.autoconfigure.flink.remote.FlinkRemoteProperties;
import io.streamsplit.boot.autoconfigure.flink.remote.JobJars;
import io.streamsplit.boot.autoconfigure.job.DefaultPipelineContext;
import io.streamsplit.boot.autoconfigure.job.JobFailures;
import io.streamsplit.boot.autoconfigure.job.StaleCheckpointCheck;
import io.streamsplit.boot.autoconfigure.job.StreamSplitJob;
import io.streamsplit.boot.autoconfigure.job.SubmittedJobClient;
import io.streamsplit.boot.autoconfigure.job.cluster.ClusterJobController;
import io.streamsplit.boot.autoconfigure.job.cluster.ClusterStart;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.autoconfigure.kafka.KafkaStartupCheck;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSinkCustomizer;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSourceCustomizer;
import io.streamsplit.boot.autoconfigure.kafka.UserBeans;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.kafka.connection.PropertiesStreamSplitKafkaConnectionDetails;
import io.streamsplit.boot.autoconfigure.kafka.connection.StreamSplitKafkaConnectionDetails;
import io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker;
import io.streamsplit.boot.autoconfigure.kafka.format.KafkaFormats;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Turns {@code streamsplit.*} into a running Flink job over Kafka: the Kafka connection, one
 * {@link StreamSplitKafkaSource} bean per configured source, a {@link StreamExecutionEnvironment} on
 * an embedded MiniCluster or a remote session cluster, the job built from the
 * {@link StreamSplitPipeline} beans and submitted after startup, and its {@link JobClient}. Every bean
 * backs off when the application defines its own; customizer beans change one setting without
 * replacing a bean.
 */
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass({StreamExecutionEnvironment.class, StreamSplitKafkaSource.class})
@EnableConfigurationProperties(StreamSplitProperties.class)
@Import({
    KafkaSourceBeanRegistrar.class,
    RemoteClusterConfiguration.class,
    StreamSplitAutoConfiguration.BootKafkaConnectionConfiguration.class,
    StreamSplitAutoConfiguration.PropertiesKafkaConnectionConfiguration.class,
    StreamSplitAutoConfiguration.EmbeddedKafkaDevModeConfiguration.class
})
public final class StreamSplitAutoConfiguration {

    /** Unknown streamsplit.* keys fail startup before any bean is built. */
    @Bean
    static StreamSplitPropertyNames streamSplitPropertyNames(Environment environment) {
        return new StreamSplitPropertyNames(environment);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaClientProperties streamSplitKafkaClientProperties(
            StreamSplitProperties properties, StreamSplitKafkaConnectionDetails connection, Environment environment) {
        return new KafkaClientProperties(properties.getKafka().getProperties(), connection, environment);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaBootstrapServers streamSplitKafkaBootstrapServers(StreamSplitKafkaConnectionDetails connection) {
        return new KafkaBootstrapServers(connection);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaSourceFactory streamSplitKafkaSourceFactory(
            StreamSplitProperties properties,
            KafkaClientProperties clientProperties,
            KafkaBootstrapServers bootstrapServers,
            ConfigurableListableBeanFactory beanFactory,
            KafkaFormats formats,
            ObjectProvider<StreamSplitKafkaSourceCustomizer> customizers) {
        return new KafkaSourceFactory(
                properties.getKafka(),
                clientProperties,
                bootstrapServers,
                new UserBeans(beanFactory),
                formats,
                customizers.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaFormats streamSplitKafkaFormats(ConfigurableListableBeanFactory beanFactory) {
        return new KafkaFormats(beanFactory);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaSinkFactory streamSplitKafkaSinkFactory(
            StreamSplitProperties properties,
            FlinkJobDefinition job,
            KafkaClientProperties clientProperties,
            KafkaBootstrapServers bootstrapServers,
            ConfigurableListableBeanFactory beanFactory,
            KafkaFormats formats,
            ObjectProvider<StreamSplitKafkaSinkCustomizer> customizers) {
        return new KafkaSinkFactory(
                properties.getKafka(),
                clientProperties,
                properties.getFlink(),
                job.name(),
                bootstrapServers,
                new UserBeans(beanFactory),
                formats,
                customizers.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaStartupCheck streamSplitKafkaStartupCheck(
            StreamSplitProperties properties,
            KafkaBootstrapServers bootstrapServers,
            KafkaClientProperties clientProperties,
            ConfigurableListableBeanFactory beanFactory) {
        return new KafkaStartupCheck(
                properties.getKafka(),
                bootstrapServers,
                clientProperties,
                properties.getFlink().isEnabled(),
                beanFactory);
    }

    @Bean
    @ConditionalOnMissingBean
    FlinkJobDefinition streamSplitFlinkJobDefinition(
            StreamSplitProperties properties,
            Environment environment,
            KafkaBootstrapServers bootstrapServers,
            KafkaClientProperties clientProperties) {
        FlinkProperties flink = properties.getFlink();
        UnitlessDurations.check(properties, environment);
        return FlinkJobDefinition.of(
                flink,
                environment,
                new StaleCheckpointCheck(
                        properties.getKafka(),
                        flink.getCheckpointing().getOnStaleCheckpoint(),
                        bootstrapServers,
                        clientProperties));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "streamsplit.flink.mode", havingValue = "embedded", matchIfMissing = true)
    EmbeddedFlinkCluster embeddedFlinkCluster(
            StreamSplitProperties properties, FlinkJobDefinition job, ConfigurableListableBeanFactory beanFactory) {
        EmbeddedFlinkCluster cluster = new EmbeddedFlinkCluster(
                FlinkConfigurationMapper.embeddedClusterConfiguration(properties.getFlink(), job.configuration()));
        boolean jobComing = properties.getFlink().isEnabled()
                && beanFactory.getBeanNamesForType(StreamSplitPipeline.class, false, false).length > 0;
        return jobComing ? cluster.startInBackground() : cluster; // starts while the rest of the context refreshes
    }

    @Bean
    @ConditionalOnMissingBean
    StreamExecutionEnvironment streamExecutionEnvironment(
            StreamSplitProperties properties,
            FlinkJobDefinition definition,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<JobJars> jobJars,
            ObjectProvider<StreamExecutionEnvironmentCustomizer> customizers) {
        StreamExecutionEnvironment environment = environment(properties.getFlink(), definition, embedded, jobJars);
        customizers.orderedStream().forEach(customizer -> customizer.customize(environment));
        return environment;
    }

    private static StreamExecutionEnvironment environment(
            FlinkProperties flink,
            FlinkJobDefinition definition,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<JobJars> jobJars) {
        Configuration job = new Configuration(definition.configuration());
        FlinkApplicationMode.checkNotRunByFlink(flink.getMode());
        if (flink.getMode() == FlinkProperties.Mode.APPLICATION) {
            return FlinkApplicationMode.environment(job);
        }
        if (flink.getMode() == FlinkProperties.Mode.REMOTE) {
            FlinkRemoteProperties remote = flink.getRemote();
            if (remote.getHost() == null || remote.getHost().isBlank()) {
                throw new InvalidStreamSplitConfigurationException(
                        "streamsplit.flink.remote.host",
                        null,
                        "streamsplit.flink.mode is 'remote' but no JobManager host is set",
                        "Set streamsplit.flink.remote.host (and remote.port, default 8081), or use mode 'embedded'.");
            }
            String[] jars =
                    jobJars.getObject().shipped().stream().map(Path::toString).toArray(String[]::new);
            return StreamExecutionEnvironment.createRemoteEnvironment(remote.getHost(), remote.getPort(), job, jars);
        }
        EmbeddedFlinkCluster cluster = embedded.getIfAvailable();
        if (cluster == null) {
            throw new IllegalStateException("Embedded mode needs an EmbeddedFlinkCluster bean");
        }
        job.set(DeploymentOptions.TARGET, EmbeddedFlinkCluster.EXECUTOR_NAME);
        return new StreamExecutionEnvironment(
                cluster.executorServiceLoader(), job, StreamSplitAutoConfiguration.class.getClassLoader());
    }

    @Bean
    @ConditionalOnMissingBean
    FlinkRestClient streamSplitFlinkRestClient(
            StreamSplitProperties properties,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<StreamExecutionEnvironment> environment) {
        if (properties.getFlink().getMode() == FlinkProperties.Mode.APPLICATION) {
            return new FlinkRestClient(() ->
                    FlinkApplicationMode.restAddress(environment.getObject().getConfiguration()));
        }
        FlinkRestClient rest = FlinkRestClient.of(
                properties.getFlink(), () -> embedded.getObject().restAddress());
        if (properties.getFlink().getMode() == FlinkProperties.Mode.EMBEDDED) {
            return rest.withInProcessCheckpoints(jobId -> embedded.getObject().triggerCheckpoint(jobId));
        }
        return rest;
    }

    @Bean
    @ConditionalOnMissingBean
    StreamSplitJob streamSplitJob(
            StreamSplitProperties properties,
            FlinkJobDefinition job,
            StreamExecutionEnvironment streamExecutionEnvironment,
            ConfigurableListableBeanFactory beanFactory,
            KafkaSourceFactory sources,
            KafkaSinkFactory sinks,
            FlinkRestClient rest,
            JobFailures failures,
            ObjectProvider<ClusterJobController> cluster,
            ObjectProvider<ClusterStart> clusterStart) {
        FlinkProperties flink = properties.getFlink();
        return new StreamSplitJob(
                flink,
                job.name(),
                streamExecutionEnvironment,
                beanFactory,
                () -> new DefaultPipelineContext(streamExecutionEnvironment, beanFactory, sources, sinks),
                target(flink),
                rest,
                failures,
                cluster.getIfAvailable(),
                clusterStart.getIfAvailable());
    }

    /** Where the job runs, for messages: "the Flink cluster at host:port" or "the embedded Flink MiniCluster". */
    static String target(FlinkProperties flink) {
        return switch (flink.getMode()) {
            case REMOTE ->
                "the Flink cluster at " + flink.getRemote().getHost() + ":"
                        + flink.getRemote().getPort();
            case APPLICATION -> "the Flink cluster that started the application";
            case EMBEDDED -> "the embedded Flink MiniCluster";
        };
    }

    @Bean
    @ConditionalOnMissingBean
    JobFailures streamSplitJobFailures(StreamSplitProperties properties, KafkaBootstrapServers bootstrapServers) {
        return new JobFailures(properties.getKafka(), bootstrapServers);
    }

    @Bean
    @ConditionalOnMissingBean
    JobClient streamSplitJobClient(StreamSplitJob job) {
        return new SubmittedJobClient(job::submission);
    }

    private static PropertiesStreamSplitKafkaConnectionDetails propertiesConnection(
            StreamSplitKafkaProperties kafka,
            Environment environment,
            PropertiesStreamSplitKafkaConnectionDetails.BootConnection boot,
            ObjectProvider<EmbeddedKafkaDevBroker> devBroker,
            ObjectProvider<SslBundles> sslBundles) {
        EmbeddedKafkaDevBroker broker = devBroker.getIfAvailable();
        Supplier<String> servers = broker == null ? null : broker::bootstrapServers;
        return new PropertiesStreamSplitKafkaConnectionDetails(
                kafka.getBootstrapServers(),
                kafka.getSslBundle(),
                environment,
                boot,
                servers,
                sslBundles::getIfAvailable);
    }

    /**
     * With spring-boot-kafka: Boot's {@link KafkaConnectionDetails} are taken whole (servers, security
     * protocol, SSL bundle) when something configured them: a {@code @ServiceConnection} or a bean of the
     * application, or {@code spring.kafka.bootstrap-servers} for the default bean Boot's own
     * auto-configuration defines (it answers localhost:9092 when nothing is set, which must not keep
     * dev mode from starting its broker).
     */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(KafkaConnectionDetails.class)
    static final class BootKafkaConnectionConfiguration {

        @Bean
        @ConditionalOnMissingBean(StreamSplitKafkaConnectionDetails.class)
        PropertiesStreamSplitKafkaConnectionDetails streamSplitKafkaConnectionDetails(
                StreamSplitProperties properties,
                Environment environment,
                ObjectProvider<KafkaConnectionDetails> bootDetails,
                ConfigurableListableBeanFactory beanFactory,
                ObjectProvider<EmbeddedKafkaDevBroker> devBroker,
                ObjectProvider<SslBundles> sslBundles) {
            KafkaConnectionDetails details = bootDetails.getIfUnique();
            PropertiesStreamSplitKafkaConnectionDetails.BootConnection boot = null;
            if (details != null
                    && (!definedByBootsKafkaAutoConfiguration(beanFactory)
                            || environment.containsProperty("spring.kafka.bootstrap-servers")
                            || environment.containsProperty("spring.kafka.consumer.bootstrap-servers"))) {
                boot = new PropertiesStreamSplitKafkaConnectionDetails.BootConnection(
                        details.getConsumer().getBootstrapServers(),
                        details.getSecurityProtocol(),
                        details.getSslBundle(),
                        "Spring Boot's KafkaConnectionDetails");
            }
            return propertiesConnection(properties.getKafka(), environment, boot, devBroker, sslBundles);
        }

        private static boolean definedByBootsKafkaAutoConfiguration(ConfigurableListableBeanFactory beanFactory) {
            for (String name : beanFactory.getBeanNamesForType(KafkaConnectionDetails.class, false, false)) {
                if (beanFactory.containsBeanDefinition(name)
                        && KafkaAutoConfiguration.class
                                .getName()
                                .equals(beanFactory.getBeanDefinition(name).getFactoryBeanName())) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Without spring-boot-kafka: {@code streamsplit.kafka.*}, {@code spring.kafka.*} properties, the dev broker. */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails")
    static final class PropertiesKafkaConnectionConfiguration {

        @Bean
        @ConditionalOnMissingBean(StreamSplitKafkaConnectionDetails.class)
        PropertiesStreamSplitKafkaConnectionDetails streamSplitKafkaConnectionDetails(
                StreamSplitProperties properties,
                Environment environment,
                ObjectProvider<EmbeddedKafkaDevBroker> devBroker,
                ObjectProvider<SslBundles> sslBundles) {
            return propertiesConnection(properties.getKafka(), environment, null, devBroker, sslBundles);
        }
    }

    /** Dev mode: an in-JVM broker when streamsplit-embedded-kafka is on the classpath and no Kafka is configured. */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(EmbeddedKafkaBroker.class)
    @ConditionalOnProperty(name = "streamsplit.kafka.embedded.enabled", havingValue = "true", matchIfMissing = true)
    static final class EmbeddedKafkaDevModeConfiguration {

        @Bean
        @ConditionalOnMissingBean
        EmbeddedKafkaDevBroker embeddedKafkaDevBroker(StreamSplitProperties properties) {
            return new EmbeddedKafkaDevBroker(properties.getKafka());
        }
    }
}
