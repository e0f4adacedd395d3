package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.kafka.connection.PropertiesStreamSplitKafkaConnectionDetails;
import io.streamsplit.boot.autoconfigure.kafka.connection.StreamSplitKafkaConnectionDetails;
import io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Where Kafka is and how to reach it: the connection details (Spring Boot's when spring-boot-kafka
 * configured them, else {@code streamsplit.kafka.*}), the shared client properties and bootstrap
 * servers, and the dev-mode broker.
 */
@org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
class KafkaConnectionConfiguration {

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

    private static PropertiesStreamSplitKafkaConnectionDetails propertiesConnection(
            StreamSplitKafkaProperties kafka,
            Environment environment,
            PropertiesStreamSplitKafkaConnectionDetails.@Nullable BootConnection boot,
            ObjectProvider<EmbeddedKafkaDevBroker> devBroker,
            ObjectProvider<SslBundles> sslBundles) {
        EmbeddedKafkaDevBroker broker = devBroker.getIfAvailable();
        Supplier<String> servers = broker == null || !broker.allowed() ? null : broker::bootstrapServers;
        return new PropertiesStreamSplitKafkaConnectionDetails(
                kafka.getBootstrapServers(),
                kafka.getSslBundle(),
                environment,
                boot,
                servers,
                broker == null ? null : broker.whyNotStarted(),
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

    /**
     * Dev mode: an in-JVM broker when streamsplit-embedded-kafka is on the classpath and no Kafka is configured,
     * in a development run or when {@code streamsplit.kafka.embedded.enabled=true} asks for it.
     */
    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(EmbeddedKafkaBroker.class)
    static final class EmbeddedKafkaDevModeConfiguration {

        @Bean
        @ConditionalOnMissingBean
        EmbeddedKafkaDevBroker embeddedKafkaDevBroker(
                StreamSplitProperties properties, ConfigurableListableBeanFactory beanFactory) {
            List<Class<?>> applications = Arrays.stream(
                            beanFactory.getBeanNamesForAnnotation(SpringBootConfiguration.class))
                    .map(beanFactory::getType)
                    .filter(Objects::nonNull)
                    .<Class<?>>map(ClassUtils::getUserClass)
                    .toList();
            // a context without an application class (a test's context runner) counts as development
            return new EmbeddedKafkaDevBroker(
                    properties.getKafka(),
                    applications.isEmpty() || applications.stream().anyMatch(EmbeddedKafkaDevBroker::isDevelopmentRun));
        }
    }
}
