package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties.StartupCheckMode;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSinkCustomizer;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaSourceCustomizer;
import io.streamsplit.boot.autoconfigure.kafka.UserBeans;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.kafka.connection.SslBundlePem;
import io.streamsplit.boot.autoconfigure.kafka.format.KafkaFormats;
import io.streamsplit.boot.autoconfigure.kafka.format.RegistrySettings;
import io.streamsplit.boot.autoconfigure.kafka.startup.KafkaStartupCheck;
import io.streamsplit.boot.autoconfigure.step.PropertiesProcessingErrors;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.job.JobDefinition;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The sources and sinks named in {@code streamsplit.kafka.sources} and {@code .sinks}: their factories,
 * the built-in formats and the startup check of topics and access.
 */
@org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
class KafkaSourcesAndSinksConfiguration {

    @Bean
    @ConditionalOnMissingBean
    KafkaSourceFactory streamSplitKafkaSourceFactory(
            StreamSplitProperties properties,
            KafkaClientProperties clientProperties,
            KafkaBootstrapServers bootstrapServers,
            ConfigurableListableBeanFactory beanFactory,
            KafkaFormats formats,
            ObjectProvider<StreamSplitKafkaSourceCustomizer> customizers,
            Environment environment) {
        return new KafkaSourceFactory(
                properties.getKafka(),
                clientProperties,
                bootstrapServers,
                new UserBeans(beanFactory),
                formats,
                customizers.orderedStream().toList(),
                Binder.get(environment));
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaFormats streamSplitKafkaFormats(
            ConfigurableListableBeanFactory beanFactory,
            StreamSplitProperties properties,
            ObjectProvider<SslBundles> sslBundles) {
        return new KafkaFormats(beanFactory, registrySettings(properties.getKafka(), sslBundles));
    }

    /** {@code streamsplit.kafka.schema-registry.*}, its SSL bundle as PEM (it travels with the job). */
    private static RegistrySettings registrySettings(
            StreamSplitKafkaProperties kafka, ObjectProvider<SslBundles> sslBundles) {
        StreamSplitKafkaProperties.SchemaRegistry registry = kafka.getSchemaRegistry();
        String pem = null;
        String bundleName = registry.getSslBundle();
        if (bundleName != null && !bundleName.isBlank()) {
            String property = RegistrySettings.PREFIX + "ssl-bundle";
            pem = SslBundlePem.trustedCertificates(
                    property, bundleName, SslBundlePem.bundle(property, bundleName, sslBundles.getIfAvailable()));
        }
        StartupCheckMode mode = kafka.getStartupCheck().getMode();
        return new RegistrySettings(
                registry.getUrl(),
                registry.getUsername(),
                registry.getPassword(),
                pem,
                registry.isAutoRegister(),
                mode != StartupCheckMode.OFF,
                mode == StartupCheckMode.FAIL);
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaSinkFactory streamSplitKafkaSinkFactory(
            StreamSplitProperties properties,
            JobDefinition job,
            KafkaClientProperties clientProperties,
            KafkaBootstrapServers bootstrapServers,
            ConfigurableListableBeanFactory beanFactory,
            KafkaFormats formats,
            ObjectProvider<StreamSplitKafkaSinkCustomizer> customizers,
            ObjectProvider<EmbeddedFlinkCluster> embedded) {
        EmbeddedFlinkCluster cluster = embedded.getIfAvailable();
        return new KafkaSinkFactory(
                properties.getKafka(),
                clientProperties,
                properties.getFlink(),
                job.name(),
                bootstrapServers,
                new UserBeans(beanFactory),
                formats,
                customizers.orderedStream().toList(),
                // embedded: the cluster's id, which its readers also know. Remote: nothing on the TaskManagers
                // looks it up, and it is serialized into every sink, so it must be the same on every start
                // (else each start would see "another version" of the job and upgrade it instead of adopting it)
                cluster != null ? cluster.applicationId() : "streamsplit-" + job.name());
    }

    /** {@code streamsplit.processing-errors}, its defaults checked at start-up. */
    @Bean
    PropertiesProcessingErrors streamSplitProcessingErrors(
            StreamSplitProperties properties,
            Environment environment,
            ConfigurableListableBeanFactory beanFactory,
            ObjectProvider<KafkaStartupCheck> startupCheck) {
        PropertiesProcessingErrors errors = new PropertiesProcessingErrors(
                properties.getProcessingErrors(),
                environment,
                beanFactory.getBeanClassLoader(),
                (step, origin, topic) -> startupCheck.ifAvailable(
                        check -> check.checkWriter("the dead letters of step '" + step + "'", origin, topic)));
        errors.checkDefaults();
        return errors;
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaStartupCheck streamSplitKafkaStartupCheck(
            StreamSplitProperties properties,
            KafkaBootstrapServers bootstrapServers,
            KafkaClientProperties clientProperties,
            ConfigurableListableBeanFactory beanFactory,
            PropertiesProcessingErrors processingErrors) {
        return new KafkaStartupCheck(
                properties.getKafka(),
                bootstrapServers,
                clientProperties,
                properties.getFlink().isEnabled(),
                properties.getFlink().isDryRun(),
                beanFactory,
                processingErrors.deadLetterTopics());
    }
}
