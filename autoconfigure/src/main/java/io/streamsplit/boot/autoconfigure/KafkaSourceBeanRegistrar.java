package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.Map;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link StreamSplitKafkaSource} bean per {@code streamsplit.kafka.sources.<name>},
 * named {@code <name>}, so users can inject a source by name. A bean the user defined under that
 * name wins (the auto-configured one backs off).
 */
class KafkaSourceBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

    @SuppressWarnings("NullAway.Init") // set by Spring (EnvironmentAware) before registerBeanDefinitions
    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        Map<String, KafkaSourceProperties> sources = Binder.get(environment)
                .bind("streamsplit.kafka.sources", Bindable.mapOf(String.class, KafkaSourceProperties.class))
                .orElse(Map.of());
        ConfigurableListableBeanFactory beanFactory = (ConfigurableListableBeanFactory) registry;
        for (String name : sources.keySet()) {
            if (registry.containsBeanDefinition(name)) {
                Class<?> taken = beanFactory.getType(name, false);
                if (taken != null && StreamSplitKafkaSource.class.isAssignableFrom(taken)) {
                    continue;
                }
                throw new InvalidStreamSplitConfigurationException(
                        "streamsplit.kafka.sources." + name,
                        name,
                        "every source is also a bean named after it, but bean '" + name + "' already exists"
                                + (taken != null ? " (" + taken.getName() + ")" : ""),
                        "Rename the source or that bean; or, to replace the auto-configured source, declare '" + name
                                + "' as a StreamSplitKafkaSource.");
            }
            RootBeanDefinition definition = new RootBeanDefinition(StreamSplitKafkaSource.class);
            definition.setInstanceSupplier(
                    () -> beanFactory.getBean(KafkaSourceFactory.class).create(name));
            definition.setDescription(KafkaSourceFactory.BEAN_DESCRIPTION + name);
            registry.registerBeanDefinition(name, definition);
        }
    }
}
