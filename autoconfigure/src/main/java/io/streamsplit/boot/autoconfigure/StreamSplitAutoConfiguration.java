package io.streamsplit.boot.autoconfigure;

import io.streamsplit.pipeline.StreamSplitPipeline;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;

/**
 * Turns {@code streamsplit.*} into a running Flink job over Kafka: one
 * {@link StreamSplitKafkaSource} bean per configured source, a {@link StreamExecutionEnvironment}
 * on an embedded MiniCluster or a remote session cluster, the job built from the
 * {@link StreamSplitPipeline} beans and submitted after startup, and its {@link JobClient}. Every
 * bean backs off when the application defines its own.
 */
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass({StreamExecutionEnvironment.class, StreamSplitKafkaSource.class})
@EnableConfigurationProperties(StreamSplitProperties.class)
@Import(KafkaSourceBeanRegistrar.class)
public final class StreamSplitAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    KafkaBootstrapServers streamSplitKafkaBootstrapServers(StreamSplitProperties properties, Environment environment,
            ObjectProvider<KafkaConnectionSource> connections) {
        List<KafkaConnectionSource> boot = new ArrayList<>();
        KafkaConnectionSource devBroker = null;
        for (KafkaConnectionSource connection : connections.orderedStream().toList()) {
            if (connection.isDevBroker()) {
                devBroker = connection;
            } else {
                boot.add(connection);
            }
        }
        return new KafkaBootstrapServers(properties.getKafka().getBootstrapServers(), environment, boot, devBroker);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaSourceFactory streamSplitKafkaSourceFactory(StreamSplitProperties properties,
            KafkaClientProperties clientProperties, KafkaBootstrapServers bootstrapServers,
            ConfigurableListableBeanFactory beanFactory) {
        return new KafkaSourceFactory(properties.getKafka(), clientProperties, bootstrapServers,
                new UserBeans(beanFactory));
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaClientProperties streamSplitKafkaClientProperties(StreamSplitProperties properties, Environment environment,
            ObjectProvider<SslBundles> sslBundles) {
        return new KafkaClientProperties(properties.getKafka(), environment, sslBundles);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaSinkFactory streamSplitKafkaSinkFactory(StreamSplitProperties properties, FlinkJobDefinition job,
            KafkaClientProperties clientProperties, KafkaBootstrapServers bootstrapServers,
            ConfigurableListableBeanFactory beanFactory) {
        return new KafkaSinkFactory(properties.getKafka(), clientProperties, properties.getFlink(), job.name(),
                bootstrapServers, new UserBeans(beanFactory));
    }

    @Bean
    @ConditionalOnMissingBean
    FlinkJobDefinition streamSplitFlinkJobDefinition(StreamSplitProperties properties, Environment environment) {
        return FlinkJobDefinition.of(properties.getFlink(), environment);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "streamsplit.flink.mode", havingValue = "embedded", matchIfMissing = true)
    EmbeddedFlinkCluster embeddedFlinkCluster(StreamSplitProperties properties, FlinkJobDefinition job) {
        return new EmbeddedFlinkCluster(
                FlinkConfigurationMapper.embeddedClusterConfiguration(properties.getFlink(), job.configuration()));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "streamsplit.flink.mode", havingValue = "remote")
    JobJars streamSplitJobJars(StreamSplitProperties properties) {
        FlinkRemoteProperties remote = properties.getFlink().getRemote();
        return JobJars.collect(System.getProperty("java.class.path"), remote.isShipClasspath(),
                existingJars(remote.getJars()), new ShipRules(remote.getExcludeJars()));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "streamsplit.flink.mode", havingValue = "remote")
    ClusterClasses streamSplitClusterClasses(JobJars jobJars) {
        return new ClusterClasses(jobJars, StreamSplitAutoConfiguration.class.getClassLoader());
    }

    @Bean
    @ConditionalOnMissingBean
    StreamExecutionEnvironment streamExecutionEnvironment(StreamSplitProperties properties,
            FlinkJobDefinition definition, ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<JobJars> jobJars) {
        FlinkProperties flink = properties.getFlink();
        Configuration job = new Configuration(definition.configuration());
        ClassLoader classLoader = StreamSplitAutoConfiguration.class.getClassLoader();
        if (flink.getMode() == FlinkProperties.Mode.REMOTE) {
            FlinkRemoteProperties remote = flink.getRemote();
            if (remote.getHost() == null || remote.getHost().isBlank()) {
                throw new InvalidStreamSplitConfigurationException("streamsplit.flink.remote.host", null,
                        "streamsplit.flink.mode is 'remote' but no JobManager host is set",
                        "Set streamsplit.flink.remote.host (and remote.port, default 8081), or use mode 'embedded'.");
            }
            String[] jars = jobJars.getObject().shipped().stream().map(Path::toString).toArray(String[]::new);
            return StreamExecutionEnvironment.createRemoteEnvironment(remote.getHost(), remote.getPort(), job, jars);
        }
        EmbeddedFlinkCluster cluster = embedded.getIfAvailable();
        if (cluster == null) {
            throw new IllegalStateException("Embedded mode needs an EmbeddedFlinkCluster bean");
        }
        job.set(DeploymentOptions.TARGET, EmbeddedFlinkCluster.EXECUTOR_NAME);
        return new StreamExecutionEnvironment(cluster.executorServiceLoader(), job, classLoader);
    }

    @Bean
    @ConditionalOnMissingBean
    StreamSplitJob streamSplitJob(StreamSplitProperties properties, FlinkJobDefinition job,
            StreamExecutionEnvironment streamExecutionEnvironment, ConfigurableListableBeanFactory beanFactory,
            KafkaSourceFactory sources, KafkaSinkFactory sinks) {
        FlinkProperties flink = properties.getFlink();
        String target = flink.getMode() == FlinkProperties.Mode.REMOTE
                ? "the Flink cluster at " + flink.getRemote().getHost() + ":" + flink.getRemote().getPort()
                : "the embedded Flink MiniCluster";
        return new StreamSplitJob(flink, job.name(), streamExecutionEnvironment, beanFactory,
                () -> new DefaultPipelineContext(streamExecutionEnvironment, beanFactory, sources, sinks), target);
    }

    @Bean
    @ConditionalOnMissingBean
    JobClient streamSplitJobClient(StreamSplitJob job) {
        return new SubmittedJobClient(job.submission());
    }

    private static List<Path> existingJars(List<String> jars) {
        for (int i = 0; i < jars.size(); i++) {
            if (!new File(jars.get(i)).isFile()) {
                throw new InvalidStreamSplitConfigurationException("streamsplit.flink.remote.jars[" + i + "]",
                        jars.get(i), "no such file; the jar is shipped to the Flink cluster with the job",
                        "Point it at the built jar (e.g. target/app.jar), or remove it.");
            }
        }
        return jars.stream().map(Path::of).toList();
    }

    /** Spring Boot's Kafka connection ({@code @ServiceConnection}, {@code spring.kafka.*}) when spring-boot-kafka is present. */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(KafkaConnectionDetails.class)
    static final class BootKafkaConnectionConfiguration {

        @Bean
        KafkaConnectionSource streamSplitBootKafkaConnection(ObjectProvider<KafkaConnectionDetails> details,
                Environment environment) {
            return new BootKafkaConnectionSource(details, environment);
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
