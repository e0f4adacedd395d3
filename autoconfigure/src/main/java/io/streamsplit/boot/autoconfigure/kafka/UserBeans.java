package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.flink.SerializabilityCheck;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.remote.ClusterClasses;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;

/**
 * Finds the user beans a source or sink needs: by the name given in YAML, or by type when exactly
 * one bean fits. Every miss is an {@link InvalidStreamSplitConfigurationException} naming the
 * property and the beans that would fit.
 */
public final class UserBeans {

    private final ConfigurableListableBeanFactory beanFactory;

    public UserBeans(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** A bean found by name or by type. */
    record Found(String name, Object bean) {}

    /**
     * Fails startup unless {@code found} can travel in the job: Java-serializable, and in remote mode
     * made only of classes the Flink cluster will have (see {@link ClusterClasses}).
     */
    void requireShippable(String property, Found found) {
        SerializabilityCheck.requireSerializable(property, found.name(), found.bean());
        ClusterClasses cluster =
                beanFactory.getBeanProvider(ClusterClasses.class).getIfAvailable();
        if (cluster != null) {
            SerializabilityCheck.requireOnCluster(property, found.name(), found.bean(), cluster);
        }
    }

    /**
     * The bean named {@code name} (which must be one of {@code types}), or when {@code name} is
     * {@code null} the only bean of those types.
     */
    Found find(String property, @Nullable String name, String what, Class<?>... types) {
        List<String> candidates = candidates(types);
        String typeNames = Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(" or "));
        if (name != null) {
            if (!beanFactory.containsBean(name)) {
                throw new InvalidStreamSplitConfigurationException(
                        property,
                        name,
                        "there is no bean named '" + name + "'",
                        candidates.isEmpty()
                                ? "Define a @Bean of type " + typeNames + " named '" + name + "'."
                                : "Use one of the " + what + " beans " + candidates + ", or define one named '" + name
                                        + "'.");
            }
            Object bean = beanFactory.getBean(name);
            if (Arrays.stream(types).noneMatch(t -> t.isInstance(bean))) {
                throw new InvalidStreamSplitConfigurationException(
                        property,
                        name,
                        "bean '" + name + "' is a " + bean.getClass().getName() + ", not a " + typeNames,
                        candidates.isEmpty()
                                ? "Point it at a bean of type " + typeNames + "."
                                : "Use one of " + candidates + ".");
            }
            return new Found(name, bean);
        }
        if (candidates.size() == 1) {
            return new Found(candidates.get(0), beanFactory.getBean(candidates.get(0)));
        }
        if (candidates.isEmpty()) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    null,
                    "no " + what + " bean is defined",
                    "Define a @Bean of type " + typeNames + ", or set " + property + " to the name of one.");
        }
        throw new InvalidStreamSplitConfigurationException(
                property,
                null,
                "there are " + candidates.size() + " " + what + " beans " + candidates + " and none is named",
                "Set " + property + " to one of " + candidates + ".");
    }

    private List<String> candidates(Class<?>... types) {
        Set<String> names = new LinkedHashSet<>();
        for (Class<?> type : types) {
            names.addAll(Arrays.asList(beanFactory.getBeanNamesForType(type, false, false)));
        }
        return new ArrayList<>(names);
    }

    /**
     * The element type of a deserializer, emitter or serializer bean: from Flink's
     * {@link ResultTypeQueryable}, else the configured {@code type}, else the generic of the
     * bean's declared type ({@code KafkaRecordDeserializer<Order>}).
     */
    TypeInformation<?> elementType(
            String typeProperty, @Nullable Class<?> configuredType, Found found, Class<?> extensionPoint) {
        if (found.bean() instanceof ResultTypeQueryable<?> queryable) {
            return queryable.getProducedType();
        }
        if (configuredType != null) {
            return TypeInformation.of(configuredType);
        }
        Class<?> generic = declaredType(found).as(extensionPoint).getGeneric(0).resolve();
        if (generic == null) {
            generic = ResolvableType.forClass(found.bean().getClass())
                    .as(extensionPoint)
                    .getGeneric(0)
                    .resolve();
        }
        if (generic == null || generic == Object.class) {
            throw new InvalidStreamSplitConfigurationException(
                    typeProperty,
                    null,
                    "the element type of bean '" + found.name()
                            + "' cannot be read from its declaration (a lambda or a raw type loses it)",
                    "Declare the @Bean method's return type with its type argument, e.g. "
                            + extensionPoint.getSimpleName() + "<Order>, or set " + typeProperty
                            + " to the element class.");
        }
        return TypeInformation.of(generic);
    }

    private ResolvableType declaredType(Found found) {
        if (beanFactory.containsBeanDefinition(found.name())) {
            BeanDefinition definition = beanFactory.getMergedBeanDefinition(found.name());
            if (definition instanceof RootBeanDefinition root) {
                return root.getResolvableType();
            }
        }
        return ResolvableType.NONE;
    }
}
