package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceProperties;
import io.streamsplit.boot.autoconfigure.kafka.SourceWatermarks;
import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

/**
 * The configuration metadata of the per-source and per-sink keys ({@code streamsplit.kafka.sources.*.…}),
 * derived from their one declaration: the field of the property class (its name is the key, its type and
 * initial value the type and default, its Javadoc the description, a {@link DeprecatedConfigurationProperty}
 * on its getter the deprecation), or the connector's {@link SourceOption} (key, type, default, description). Spring Boot's processor cannot see map values, so the build keeps these
 * entries in {@code additional-spring-configuration-metadata.json}; {@link ConfigurationMetadataTest} checks
 * that file against this, and rewrites it when asked to.
 */
final class PerNameMetadata {

    /** One metadata entry, in the order and form of the metadata file. */
    record Entry(
            String name,
            String type,
            String description,
            String sourceType,
            @Nullable String defaultValue,
            @Nullable String deprecationReason,
            @Nullable String replacement,
            @Nullable String since) {

        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("name", name);
            json.put("type", type);
            json.put("description", description);
            json.put("sourceType", sourceType);
            if (defaultValue != null) {
                json.put("defaultValue", defaultValue);
            }
            if (deprecationReason != null) {
                Map<String, Object> deprecation = new LinkedHashMap<>();
                deprecation.put("level", "warning");
                deprecation.put("reason", deprecationReason);
                if (replacement != null) {
                    deprecation.put("replacement", replacement);
                }
                if (since != null) {
                    deprecation.put("since", since);
                }
                json.put("deprecation", deprecation);
            }
            return json;
        }
    }

    private static final Pattern FIELD = Pattern.compile(
            "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*private\\s+(?:final\\s+)?(?!static)[^;=(]*?\\s(\\w+)\\s*(?:=[^;]*)?;",
            Pattern.DOTALL);
    private static final Path SOURCES = Path.of("src/main/java");

    private PerNameMetadata() {}

    /** The entries of every per-source and per-sink key, sources first, each class in field order. */
    static List<Entry> entries() throws IOException, IntrospectionException, ReflectiveOperationException {
        List<Entry> entries = new ArrayList<>();
        entries.addAll(entries("streamsplit.kafka.sources.*.", new KafkaSourceProperties()));
        for (SourceOption<?> option : SourceOptions.all()) {
            entries.add(new Entry(
                    "streamsplit.kafka.sources.*." + option.key(),
                    option.type().getName(),
                    option.description(),
                    SourceOptions.class.getName(),
                    option.defaultWritten(),
                    null,
                    null,
                    null));
        }
        entries.addAll(entries("streamsplit.kafka.sources.*.watermarks.", new SourceWatermarks()));
        entries.addAll(entries("streamsplit.kafka.sinks.*.", new KafkaSinkProperties()));
        return entries;
    }

    private static List<Entry> entries(String prefix, Object defaults)
            throws IOException, IntrospectionException, ReflectiveOperationException {
        Class<?> type = defaults.getClass();
        Map<String, PropertyDescriptor> properties = new LinkedHashMap<>();
        for (PropertyDescriptor d : Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors()) {
            properties.put(d.getName(), d);
        }
        List<Entry> entries = new ArrayList<>();
        Matcher field =
                FIELD.matcher(Files.readString(SOURCES.resolve(type.getName().replace('.', '/') + ".java")));
        while (field.find()) {
            PropertyDescriptor property = properties.get(field.group(2));
            if (property == null || property.getReadMethod() == null) {
                continue; // not a bound property
            }
            Method getter = property.getReadMethod();
            if (getter.getReturnType().getPackageName().equals(type.getPackageName())
                    && !getter.getReturnType().isEnum()) {
                continue; // a nested group (watermarks): its keys are listed with their own class
            }
            DeprecatedConfigurationProperty deprecated = getter.getAnnotation(DeprecatedConfigurationProperty.class);
            entries.add(new Entry(
                    prefix + kebab(property.getName()),
                    getter.getGenericReturnType().getTypeName().replace(" ", ""),
                    description(field.group(1)),
                    type.getName(),
                    defaultValue(getter.invoke(defaults)),
                    deprecated == null ? null : deprecated.reason(),
                    deprecated == null || deprecated.replacement().isEmpty() ? null : deprecated.replacement(),
                    deprecated == null || deprecated.since().isEmpty() ? null : deprecated.since()));
        }
        return entries;
    }

    /**
     * The docs' reference table of the entries: key, type or values (the metadata's value hints where it
     * has them, as an IDE offers them), default, description.
     */
    static String markdown(List<Entry> entries, Map<String, List<String>> hints) throws ClassNotFoundException {
        StringBuilder table =
                new StringBuilder("| key | values | default | description |\n| --- | --- | --- | --- |\n");
        for (Entry entry : entries) {
            String key = entry.name().replaceFirst("^streamsplit\\.kafka\\.(sources|sinks)\\.\\*\\.", "$1.*.");
            table.append("| `")
                    .append(key)
                    .append("` | ")
                    .append(
                            hints.containsKey(entry.name())
                                    ? String.join(" \\| ", hints.get(entry.name()))
                                    : values(entry.type()))
                    .append(" | ")
                    .append(entry.defaultValue() == null ? "" : "`" + entry.defaultValue() + "`")
                    .append(" | ")
                    .append(
                            entry.deprecationReason() == null
                                    ? ""
                                    : "Deprecated" + (entry.since() == null ? "" : " since " + entry.since()) + ": "
                                            + entry.deprecationReason() + " ")
                    .append(entry.description().replace("|", "\\|"))
                    .append(" |\n");
        }
        return table.toString();
    }

    private static String values(String type) throws ClassNotFoundException {
        if (!type.contains("<") && type.contains(".")) { // not a primitive
            Class<?> c = Class.forName(type);
            if (c.isEnum()) {
                List<String> names = new ArrayList<>();
                for (Object constant : c.getEnumConstants()) {
                    names.add(
                            ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'));
                }
                return String.join(" \\| ", names);
            }
        }
        return type.replaceAll("[a-z0-9_.]+\\.([A-Z])", "$1")
                .replace("<", "&lt;")
                .replace(">", "&gt;");
    }

    static String kebab(String camel) {
        return camel.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    private static String description(String javadoc) {
        return javadoc.replaceAll("\\s*\\n\\s*\\*?", " ")
                .replaceAll("\\{@(?:code|link) ([^}]*)}", "$1")
                .replaceAll("\\s+", " ")
                .strip();
    }

    private static @Nullable String defaultValue(@Nullable Object value) {
        if (value == null
                || value instanceof Collection<?> c && c.isEmpty()
                || value instanceof Map<?, ?> m && m.isEmpty()) {
            return null;
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
        if (value instanceof Duration d) {
            return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
        }
        return value.toString();
    }
}
