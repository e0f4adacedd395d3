package io.streamsplit.boot.autoconfigure;

import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.pipeline.StreamSplitPipeline;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
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
 *
 * <p>One configuration class per concern, imported here as Spring Boot's own auto-configurations
 * import theirs: {@link KafkaConnectionConfiguration}, {@link KafkaSourcesAndSinksConfiguration},
 * {@link FlinkEnvironmentConfiguration} (with {@link RemoteClusterConfiguration} in remote mode) and
 * {@link JobConfiguration}, and {@link SqlConfiguration} for {@code streamsplit.sql}; this class only checks the {@code streamsplit.*} keys.
 */
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass({StreamExecutionEnvironment.class, StreamSplitKafkaSource.class})
@EnableConfigurationProperties(StreamSplitProperties.class)
@Import({
    KafkaConnectionConfiguration.class,
    KafkaConnectionConfiguration.BootKafkaConnectionConfiguration.class,
    KafkaConnectionConfiguration.PropertiesKafkaConnectionConfiguration.class,
    KafkaConnectionConfiguration.EmbeddedKafkaDevModeConfiguration.class,
    KafkaSourcesAndSinksConfiguration.class,
    KafkaSourceBeanRegistrar.class,
    FlinkEnvironmentConfiguration.class,
    RemoteClusterConfiguration.class,
    JobConfiguration.class,
    SqlConfiguration.class,
    LineageConfiguration.class
})
public final class StreamSplitAutoConfiguration {

    /** Unknown streamsplit.* keys fail startup before any bean is built. */
    @Bean
    static UnknownPropertyCheck streamSplitPropertyNames(Environment environment) {
        return new UnknownPropertyCheck(environment);
    }
}
