package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.flink.FlinkConfigurationMapper;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkRemoteProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.remote.ClusterClasses;
import io.streamsplit.boot.flink.remote.JobJars;
import io.streamsplit.boot.flink.remote.ShipRules;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.JobDefinition;
import io.streamsplit.boot.job.StaleCheckpointCheck;
import io.streamsplit.boot.job.cluster.ClusterJobController;
import io.streamsplit.boot.job.cluster.ClusterStart;
import io.streamsplit.boot.job.cluster.JobLabels;
import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * Remote mode: the jars shipped with the job, the check that its classes load on the cluster, and
 * the job's controller there ({@link ClusterJobController}).
 */
@org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "streamsplit.flink.mode", havingValue = "remote")
class RemoteClusterConfiguration {

    @Bean
    @ConditionalOnMissingBean
    JobJars streamSplitJobJars(StreamSplitProperties properties) {
        FlinkRemoteProperties remote = properties.getFlink().getRemote();
        return JobJars.collect(
                System.getProperty("java.class.path"),
                remote.isShipClasspath(),
                existingJars(remote.getJars()),
                new ShipRules(remote.getExcludeJars()));
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterClasses streamSplitClusterClasses(JobJars jobJars) {
        return new ClusterClasses(jobJars, FlinkEnvironmentConfiguration.class.getClassLoader());
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterStart streamSplitClusterStart(StreamSplitProperties properties, ClusterClasses classes, JobJars jars) {
        FlinkRemoteProperties remote = properties.getFlink().getRemote();
        return new ClusterStart(URI.create("http://" + remote.getHost() + ":" + remote.getPort()), classes, jars);
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterJobController streamSplitClusterJobController(
            StreamSplitProperties properties,
            JobDefinition job,
            FlinkRestClient rest,
            StreamExecutionEnvironment environment,
            KafkaSourceFactory sources,
            KafkaClientProperties clientProperties,
            ConfigurableListableBeanFactory beanFactory,
            org.springframework.core.env.Environment spring) {
        FlinkProperties flink = properties.getFlink();
        // Flink's remote environment writes its default restore settings (no unclaimed state, claim mode) over the
        // ones configured: the job's own decide how its runs restore
        Configuration configuration = (Configuration) environment.getConfiguration();
        job.configuration()
                .getOptional(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE)
                .ifPresent(
                        allowed -> configuration.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, allowed));
        job.configuration()
                .getOptional(StateRecoveryOptions.RESTORE_MODE)
                .ifPresent(mode -> configuration.set(StateRecoveryOptions.RESTORE_MODE, mode));
        return new ClusterJobController(
                rest,
                configuration,
                FlinkEnvironmentConfiguration.class.getClassLoader(),
                job.name(),
                FlinkConfigurationMapper.runSettings(flink)
                        .withVersion(spring.getProperty("spring.application.version"))
                        .withHistory(job.history()),
                owner(beanFactory),
                JobConfiguration.target(flink),
                new StaleCheckpointCheck(sources, flink.getCheckpointing().getOnStaleCheckpoint(), clientProperties));
    }

    /** The application that owns the job: its {@code @SpringBootConfiguration} class (the main class). */
    static String owner(ConfigurableListableBeanFactory beanFactory) {
        return Arrays.stream(beanFactory.getBeanNamesForAnnotation(SpringBootConfiguration.class))
                .map(beanFactory::getType)
                .filter(type -> type != null)
                .map(type -> ClassUtils.getUserClass(type).getName())
                .sorted()
                .findFirst()
                .orElse(JobLabels.UNKNOWN_OWNER);
    }

    private static List<Path> existingJars(List<String> jars) {
        for (int i = 0; i < jars.size(); i++) {
            if (!new File(jars.get(i)).isFile()) {
                throw new InvalidStreamSplitConfigurationException(
                        "streamsplit.flink.remote.jars[" + i + "]",
                        jars.get(i),
                        "no such file; the jar is shipped to the Flink cluster with the job",
                        "Point it at the built jar (e.g. target/app.jar), or remove it.");
            }
        }
        return jars.stream().map(Path::of).toList();
    }
}
