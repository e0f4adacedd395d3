package io.streamsplit.connector.kafka.source.option;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.jspecify.annotations.Nullable;

/**
 * One setting of the source, declared once, as Kafka's {@code ConfigDef} and Flink's {@link ConfigOption}
 * declare theirs: its key, type, default, description and rule. The builder checks a value against the rule
 * ({@code StreamSplitKafkaSourceBuilder#set}); the Spring Boot starter binds it from
 * {@code streamsplit.kafka.sources.<name>.<key>} and lists it in the IDE's metadata; SQL tables take it as
 * {@code 'scan.<key>'}.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.source.option.SourceOptions;
 *
 * builder.set(SourceOptions.MAX_POLL_RECORDS, 500);
 * }</pre>
 *
 * @param <T> the value's type: {@code Integer}, {@code Long}, {@code Double}, {@code Boolean}, {@code String} or
 *     {@code Duration}
 */
@PublicEvolving
public final class SourceOption<T> {

    private final String key;
    private final Class<T> type;
    private final T defaultValue;
    private final String description;
    private final @Nullable String consumerProperty;
    private final Predicate<T> rule;
    private final String requirement;
    private final @Nullable T minimum;
    private final String example;
    private final String tableKey;

    private SourceOption(
            String key,
            Class<T> type,
            T defaultValue,
            String description,
            @Nullable String consumerProperty,
            Predicate<T> rule,
            String requirement,
            @Nullable T minimum,
            String example,
            String tableKey) {
        this.key = key;
        this.type = type;
        this.defaultValue = defaultValue;
        this.description = description;
        this.consumerProperty = consumerProperty;
        this.rule = rule;
        this.requirement = requirement;
        this.minimum = minimum;
        this.example = example;
        this.tableKey = tableKey;
    }

    /** A setting of {@code type} under {@code key} (kebab case, e.g. {@code max-poll-records}), any value allowed. */
    public static <T> SourceOption<T> of(String key, Class<T> type, T defaultValue, String description) {
        return new SourceOption<>(
                Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(type, "type"),
                Objects.requireNonNull(defaultValue, "defaultValue"),
                Objects.requireNonNull(description, "description"),
                null,
                value -> true,
                "any value",
                null,
                written(defaultValue),
                "scan." + key);
    }

    /**
     * The period of something the source can also leave off: {@code 0} (the default) is off, anything else must be
     * at least {@code minimum}, below which no pipeline means it (a number without a unit is milliseconds in Spring
     * Boot: {@code 10} is 10 ms). {@code example} is a sensible value, written as the user would ({@code 30s}).
     */
    public static SourceOption<Duration> interval(String key, Duration minimum, String example, String description) {
        Objects.requireNonNull(minimum, "minimum");
        return of(key, Duration.class, Duration.ZERO, description)
                .requiring(
                        interval -> interval.isZero() || interval.compareTo(minimum) >= 0,
                        "0 (off) or at least " + written(minimum))
                .withMinimum(minimum, example);
    }

    /** This setting, allowing only values that pass {@code rule}, which {@code requirement} says in words. */
    public SourceOption<T> requiring(Predicate<T> rule, String requirement) {
        return new SourceOption<>(
                key, type, defaultValue, description, consumerProperty, rule, requirement, minimum, example, tableKey);
    }

    /** This setting, as the value of Kafka consumer property {@code property} for the source's readers. */
    public SourceOption<T> asConsumerProperty(String property) {
        return new SourceOption<>(
                key, type, defaultValue, description, property, rule, requirement, minimum, example, tableKey);
    }

    /**
     * This setting, taken by SQL tables under {@code key} instead of {@code scan.<key>}: for a setting Flink's own
     * {@code 'kafka'} connector has under that name, so a table moves between the two unchanged.
     */
    public SourceOption<T> withTableKey(String key) {
        return new SourceOption<>(
                this.key,
                type,
                defaultValue,
                description,
                consumerProperty,
                rule,
                requirement,
                minimum,
                example,
                Objects.requireNonNull(key, "key"));
    }

    private SourceOption<T> withMinimum(T minimum, String example) {
        return new SourceOption<>(
                key, type, defaultValue, description, consumerProperty, rule, requirement, minimum, example, tableKey);
    }

    /** The key, in kebab case: {@code max-poll-records}. */
    public String key() {
        return key;
    }

    public Class<T> type() {
        return type;
    }

    /** The value when the setting is not set. */
    public T defaultValue() {
        return defaultValue;
    }

    /** The default as {@code application.yml} writes it: {@code 2000}, {@code 0}, {@code 30s}. */
    public String defaultWritten() {
        return written(defaultValue);
    }

    /** One or two sentences for the IDE and the docs, ending with a full stop. */
    public String description() {
        return description;
    }

    /** The Kafka consumer property this setting is, or {@code null} when the source itself uses it. */
    public @Nullable String consumerProperty() {
        return consumerProperty;
    }

    /**
     * The smallest value that is not off, for an {@link #interval}: what the Spring Boot starter compares a
     * number written without a unit with; {@code null} for other settings.
     */
    public @Nullable T minimum() {
        return minimum;
    }

    /** A sensible value as a user writes it ({@code 30s}), for messages that suggest one. */
    public String example() {
        return example;
    }

    /** The SQL table option's key: {@code scan.<key>}, unless {@link #withTableKey} named another. */
    public String tableKey() {
        return tableKey;
    }

    /** The rule in words: {@code at least 1}. */
    public String requirement() {
        return requirement;
    }

    /** Whether {@code value} passes the rule. */
    public boolean allows(T value) {
        return value != null && rule.test(value);
    }

    /** The SQL table option: {@link #tableKey()}, with this setting's type, default and description. */
    @SuppressWarnings("unchecked")
    public ConfigOption<T> tableOption() {
        ConfigOptions.OptionBuilder option = ConfigOptions.key(tableKey);
        ConfigOption<?> typed;
        if (type == Integer.class) {
            typed = option.intType().defaultValue((Integer) defaultValue);
        } else if (type == Long.class) {
            typed = option.longType().defaultValue((Long) defaultValue);
        } else if (type == Double.class) {
            typed = option.doubleType().defaultValue((Double) defaultValue);
        } else if (type == Boolean.class) {
            typed = option.booleanType().defaultValue((Boolean) defaultValue);
        } else if (type == Duration.class) {
            typed = option.durationType().defaultValue((Duration) defaultValue);
        } else if (type == String.class) {
            typed = option.stringType().defaultValue((String) defaultValue);
        } else {
            throw new IllegalStateException(
                    "Source option " + key + " has type " + type.getName() + ", which a table option cannot have");
        }
        return ((ConfigOption<T>) typed).withDescription(description);
    }

    @Override
    public String toString() {
        return key;
    }

    /** {@code 100ms}, {@code 30s}, {@code 0}, {@code 2000}: a value as it is written in {@code application.yml}. */
    private static String written(Object value) {
        if (value instanceof Duration duration) {
            long millis = duration.toMillis();
            return millis == 0 ? "0" : millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
        }
        if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 1e15) {
            return String.valueOf(number.longValue()); // 0, not 0.0
        }
        return String.valueOf(value);
    }
}
