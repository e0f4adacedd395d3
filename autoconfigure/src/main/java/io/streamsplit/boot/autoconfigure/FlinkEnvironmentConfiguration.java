package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.flink.FlinkApplicationMode;
import io.streamsplit.boot.autoconfigure.flink.FlinkConfigurationMapper;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkRemoteProperties;
import io.streamsplit.boot.autoconfigure.flink.StreamExecutionEnvironmentCustomizer;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.flink.remote.JobJars;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.EmbeddedCheckpoints;
import io.streamsplit.boot.job.JobDefinition;
import io.streamsplit.boot.job.StaleCheckpointCheck;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.net.URI;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Where the job runs: its definition ({@code streamsplit.flink.*} checked and mapped once), the
 * embedded MiniCluster, the {@link StreamExecutionEnvironment} for the mode, and the REST client of the
 * cluster. Remote mode adds {@link RemoteClusterConfiguration}.
 */
@org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
class FlinkEnvironmentConfiguration {

    /**
     * What a start does with a retained checkpoint that does not fit the topics in Kafka
     * ({@code checkpointing.on-stale-checkpoint}): asked when the application starts, and again when an embedded
     * replica takes the job over.
     */
    @Bean
    @ConditionalOnMissingBean
    StaleCheckpointCheck streamSplitStaleCheckpointCheck(
            StreamSplitProperties properties, KafkaClientProperties clientProperties, KafkaSourceFactory sources) {
        return new StaleCheckpointCheck(
                sources, properties.getFlink().getCheckpointing().getOnStaleCheckpoint(), clientProperties);
    }

    @Bean
    @ConditionalOnMissingBean
    JobDefinition streamSplitFlinkJobDefinition(
            StreamSplitProperties properties,
            Environment environment,
            KafkaClientProperties clientProperties,
            KafkaSourceFactory sources,
            StaleCheckpointCheck policy) {
        FlinkProperties flink = properties.getFlink();
        UnitlessDurationCheck.check(properties, environment);
        String name = FlinkConfigurationMapper.jobName(flink, environment);
        boolean embedded = flink.getMode() == FlinkMode.EMBEDDED;
        boolean checkpointing = flink.getCheckpointing().isEnabled();
        EmbeddedCheckpoints.Storage storage = EmbeddedCheckpoints.storage(
                name,
                flink.getCheckpointing().getStorage(),
                flink.getShutdown().getSavepointDirectory(),
                embedded,
                checkpointing,
                sources,
                clientProperties,
                properties.getKafka().getStartupCheck().getTimeout());
        JobDefinition definition =
                FlinkConfigurationMapper.jobDefinition(flink, name, storage.storage(), storage.notRetained());
        if (flink.getRestorePath() != null) {
            policy.checkRestorePath(flink.getRestorePath());
        }
        if (embedded && checkpointing) {
            EmbeddedCheckpoints.resume(definition, policy);
        }
        return definition;
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "streamsplit.flink.mode", havingValue = "embedded", matchIfMissing = true)
    EmbeddedFlinkCluster embeddedFlinkCluster(
            StreamSplitProperties properties, JobDefinition job, ConfigurableListableBeanFactory beanFactory) {
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
            JobDefinition definition,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<JobJars> jobJars,
            ObjectProvider<StreamExecutionEnvironmentCustomizer> customizers) {
        StreamExecutionEnvironment environment = environment(properties.getFlink(), definition, embedded, jobJars);
        customizers.orderedStream().forEach(customizer -> customizer.customize(environment));
        return environment;
    }

    private static StreamExecutionEnvironment environment(
            FlinkProperties flink,
            JobDefinition definition,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<JobJars> jobJars) {
        Configuration job = new Configuration(definition.configuration());
        FlinkApplicationMode.checkNotRunByFlink(flink.getMode());
        if (flink.getMode() == FlinkMode.APPLICATION) {
            return FlinkApplicationMode.environment(job);
        }
        if (flink.getMode() == FlinkMode.REMOTE) {
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
                cluster.executorServiceLoader(), job, FlinkEnvironmentConfiguration.class.getClassLoader());
    }

    @Bean
    @ConditionalOnMissingBean
    FlinkRestClient streamSplitFlinkRestClient(
            StreamSplitProperties properties,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<StreamExecutionEnvironment> environment) {
        FlinkProperties flink = properties.getFlink();
        return switch (flink.getMode()) {
            case APPLICATION ->
                new FlinkRestClient(() ->
                        FlinkApplicationMode.restAddress(environment.getObject().getConfiguration()));
            case REMOTE -> {
                URI base = URI.create("http://" + flink.getRemote().getHost() + ":"
                        + flink.getRemote().getPort());
                yield new FlinkRestClient(() -> base);
            }
            case EMBEDDED ->
                new FlinkRestClient(() -> embeddedRestAddress(embedded.getObject()))
                        .withInProcessCheckpoints(jobId -> embedded.getObject().triggerCheckpoint(jobId));
        };
    }

    private static URI embeddedRestAddress(EmbeddedFlinkCluster cluster) {
        try {
            return cluster.restAddress();
        } catch (Exception e) {
            throw new IllegalStateException("The embedded Flink cluster has no REST address: " + e.getMessage(), e);
        }
    }
}
