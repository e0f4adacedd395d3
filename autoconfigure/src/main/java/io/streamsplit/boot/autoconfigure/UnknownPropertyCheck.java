package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceProperties;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.config.NearestNames;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Refuses {@code streamsplit.*} keys that are no property, before any bean is created, with the
 * nearest real key: {@code sources.orders.fetch-max-bytes} is a Kafka client setting that belongs
 * under {@code properties.fetch.max.bytes}; {@code flink.paralellism} is {@code flink.parallelism}.
 * Map entries are checked too (a source's or sink's keys), and the {@code properties} and
 * {@code configuration} maps pass anything through. Environment variables are not checked: their
 * names cannot tell {@code group-id} from {@code group.id}.
 */
final class UnknownPropertyCheck implements BeanFactoryPostProcessor {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("streamsplit");

    private final Environment environment;

    UnknownPropertyCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return;
        }
        Set<ConfigurationPropertyName> unknown = new TreeSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(configurable)) {
            if (source instanceof IterableConfigurationPropertySource names
                    && !String.valueOf(source.getUnderlyingSource()).contains("systemEnvironment")) {
                names.stream()
                        .filter(ROOT::isAncestorOf)
                        .filter(name -> problem(name) != null)
                        .forEach(unknown::add);
            }
        }
        if (unknown.isEmpty()) {
            return;
        }
        ConfigurationPropertyName first = unknown.iterator().next();
        ConfigurationPropertyName single = listForOneValue(first);
        if (single != null) {
            List<Object> items = new ArrayList<>();
            unknown.stream().filter(single::isAncestorOf).forEach(item -> items.add(valueOf(configurable, item)));
            throw new InvalidStreamSplitConfigurationException(
                    single.toString(),
                    items,
                    "a list where one value is expected",
                    "Write one value, e.g. " + single.getLastElement(Form.DASHED) + ": " + items.get(0) + ".");
        }
        Object value = valueOf(configurable, first);
        String others = unknown.size() == 1
                ? ""
                : " (and " + (unknown.size() - 1) + " more: "
                        + unknown.stream()
                                .skip(1)
                                .map(ConfigurationPropertyName::toString)
                                .toList() + ")";
        throw new InvalidStreamSplitConfigurationException(
                first.toString(),
                value,
                "there is no such StreamSplit property" + others,
                Objects.requireNonNull(problem(first), "an unknown key has a problem"));
    }

    private static @Nullable Object valueOf(ConfigurableEnvironment environment, ConfigurationPropertyName name) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            if (property != null) {
                return property.getValue();
            }
        }
        return null;
    }

    /**
     * {@code sources.orders.group-id} for {@code sources.orders.group-id[0]}, when that property holds one
     * value ({@code group-id: [a, b]} in YAML); {@code null} for any other name.
     */
    static @Nullable ConfigurationPropertyName listForOneValue(ConfigurationPropertyName name) {
        ResolvableType type = ResolvableType.forClass(StreamSplitProperties.class);
        for (int i = 1; i < name.getNumberOfElements(); i++) {
            Class<?> raw = type.resolve(Object.class);
            if (Map.class.isAssignableFrom(raw)) {
                type = type.asMap().getGeneric(1);
                continue;
            }
            if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
                return null;
            }
            if (isValue(raw)) {
                return name.isNumericIndex(i) ? name.chop(i) : null;
            }
            if (name.isNumericIndex(i)) {
                return null;
            }
            PropertyDescriptor property =
                    BeanUtils.getPropertyDescriptor(raw, camelCase(name.getElement(i, Form.DASHED)));
            if (property == null || property.getReadMethod() == null) {
                return null;
            }
            type = ResolvableType.forMethodReturnType(property.getReadMethod());
        }
        return null;
    }

    /** Null when {@code name} is a property; else what to do about it ("Did you mean ...?"). */
    static @Nullable String problem(ConfigurationPropertyName name) {
        ResolvableType type = ResolvableType.forClass(StreamSplitProperties.class);
        for (int i = 1; i < name.getNumberOfElements(); i++) {
            Class<?> raw = type.resolve(Object.class);
            String element = name.getElement(i, Form.DASHED);
            if (Map.class.isAssignableFrom(raw)) {
                type = type.asMap().getGeneric(1);
                if (isValue(type.resolve(Object.class))) {
                    return null; // properties / configuration: any key passes through
                }
                continue; // a source's or sink's name
            }
            if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
                return name.isNumericIndex(i) && i == name.getNumberOfElements() - 1 ? null : suggestion(name, i, raw);
            }
            if (isValue(raw)) {
                return suggestion(name, i, raw);
            }
            if (raw == KafkaSourceProperties.class && i == name.getNumberOfElements() - 1 && isOption(element)) {
                return null; // a declared setting of the connector (SourceOptions)
            }
            PropertyDescriptor property = BeanUtils.getPropertyDescriptor(raw, camelCase(element));
            if (property == null || property.getReadMethod() == null || name.isNumericIndex(i)) {
                return suggestion(name, i, raw);
            }
            type = ResolvableType.forMethodReturnType(property.getReadMethod());
        }
        return null;
    }

    private static String suggestion(ConfigurationPropertyName name, int unknownElement, Class<?> parent) {
        String element = name.getElement(unknownElement, Form.DASHED);
        String parentPath = name.chop(unknownElement).toString();
        String dotted = element.replace('-', '.');
        boolean client = parent == KafkaSourceProperties.class
                || parent == KafkaSinkProperties.class
                || parent == StreamSplitKafkaProperties.class;
        if (client
                && (ConsumerConfig.configNames().contains(dotted)
                        || ProducerConfig.configNames().contains(dotted)
                        || AdminClientConfig.configNames().contains(dotted))) {
            return "Did you mean " + parentPath + ".properties." + dotted + "? " + dotted + " is a Kafka client"
                    + " setting; Kafka settings go under properties.";
        }
        List<String> nearest = NearestNames.nearest(element, propertyNames(parent), 3, 3);
        if (!nearest.isEmpty()) {
            return "Did you mean " + parentPath + "." + nearest.get(0) + "?"
                    + (nearest.size() > 1 ? " (or " + nearest.subList(1, nearest.size()) + ")" : "");
        }
        List<String> all = propertyNames(parent);
        return all.isEmpty() ? "Remove it." : "Remove it; the keys under " + parentPath + " are " + all + ".";
    }

    /** The dashed property names of a properties class, e.g. {@code group-id}. */
    private static List<String> propertyNames(Class<?> type) {
        List<String> names = new ArrayList<>();
        if (type == KafkaSourceProperties.class) {
            SourceOptions.all().forEach(option -> names.add(option.key()));
        }
        if (isValue(type) || Map.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type)) {
            return names;
        }
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
            if (property.getReadMethod() != null && !property.getName().equals("class")) {
                names.add(property.getName().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    private static boolean isOption(String key) {
        return SourceOptions.all().stream().anyMatch(option -> option.key().equals(key));
    }

    private static boolean isValue(Class<?> type) {
        return type.isPrimitive()
                || type.isEnum()
                || type.getName().startsWith("java.")
                || type.getName().startsWith("org.springframework.util.unit.")
                || type.getName().startsWith("org.apache.flink.");
    }

    private static String camelCase(String dashed) {
        StringBuilder name = new StringBuilder();
        for (String part : dashed.split("-")) {
            name.append(name.length() == 0 ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return name.toString();
    }
}
