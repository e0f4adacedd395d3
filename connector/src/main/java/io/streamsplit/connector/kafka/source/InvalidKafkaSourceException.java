package io.streamsplit.connector.kafka.source;

import io.streamsplit.connector.kafka.source.option.SourceOption;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.jspecify.annotations.Nullable;

/**
 * A {@link StreamSplitKafkaSourceBuilder} setting that cannot work. Says which {@link Setting} it is
 * about, the bad value, what is wrong and what to do, so a caller that built the source from its own
 * configuration (the Spring Boot starter, from {@code application.yml}) can report the mistake in
 * its own terms without checking the rule again.
 *
 * <pre>{@code
 * try {
 *     source = builder.build();
 * } catch (InvalidKafkaSourceException e) {
 *     String key = myConfigKeys.get(e.setting());                    // e.g. "group-id"
 *     String problem = e.problem(setting -> myConfigKeys.get(setting));
 * }
 * }</pre>
 *
 * <p>{@link #getMessage()} speaks the builder's language ({@code call setGroupId(...)}); {@link
 * #problem(Function)} and {@link #action(Function)} name other settings through the function given,
 * e.g. as property paths.
 */
@PublicEvolving
public final class InvalidKafkaSourceException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    private static final Pattern REFERENCE = Pattern.compile("\\{([A-Z_]+)}");

    /** The builder settings a rule can be about. */
    public enum Setting {
        NAME,
        BOOTSTRAP_SERVERS,
        TOPICS,
        TOPIC_PATTERN,
        PARTITIONS,
        GROUP_ID,
        STARTING_OFFSETS,
        OFFSET_RESET_STRATEGY,
        STOPPING_OFFSETS,
        COMMIT_OFFSETS,
        BAD_RECORD_POLICY,
        DESERIALIZER,
        CLIENT_ID_PREFIX,
        CLIENT_RACK,
        METADATA_TIMEOUT,
        CONTROL_TOPIC,
        /** A Kafka client property; {@link #propertyKey()} says which. */
        PROPERTY,
        /** A declared {@code SourceOption}; {@link #optionKey()} says which. */
        OPTION
    }

    private final Setting setting;
    private final @Nullable String propertyKey;
    private final transient @Nullable Object value;
    private final String problem;
    private final String action;

    InvalidKafkaSourceException(
            Setting setting, @Nullable Object value, String javaMessage, String problem, String action) {
        this(setting, null, value, javaMessage, problem, action);
    }

    InvalidKafkaSourceException(
            Setting setting,
            @Nullable String propertyKey,
            @Nullable Object value,
            String javaMessage,
            String problem,
            String action) {
        super(javaMessage);
        this.setting = Objects.requireNonNull(setting, "setting");
        this.propertyKey = propertyKey;
        this.value = value;
        this.problem = problem;
        this.action = action;
    }

    /** The setting the rule is about; for {@link Setting#PROPERTY} see {@link #propertyKey()}. */
    public Setting setting() {
        return setting;
    }

    /** The Kafka client property key for {@link Setting#PROPERTY}, else {@code null}. */
    public @Nullable String propertyKey() {
        return setting == Setting.PROPERTY ? propertyKey : null;
    }

    /** The option's key ({@code max-poll-records}) for {@link Setting#OPTION}, else {@code null}. */
    public @Nullable String optionKey() {
        return setting == Setting.OPTION ? propertyKey : null;
    }

    /** The bad value as the builder got it, or {@code null} when the setting is missing. */
    public @Nullable Object value() {
        return value;
    }

    /** What is wrong; other settings are written by {@code names} (e.g. {@code s -> "streamsplit...." + key(s)}). */
    public String problem(Function<Setting, String> names) {
        return render(problem, names);
    }

    /** What to do, with settings written by {@code names}. */
    public String action(Function<Setting, String> names) {
        return render(action, names);
    }

    private static String render(String template, Function<Setting, String> names) {
        Matcher reference = REFERENCE.matcher(template);
        StringBuilder text = new StringBuilder();
        while (reference.find()) {
            reference.appendReplacement(
                    text, Matcher.quoteReplacement(names.apply(Setting.valueOf(reference.group(1)))));
        }
        return reference.appendTail(text).toString();
    }

    /** A value of a declared setting that breaks its rule. */
    static InvalidKafkaSourceException ofOption(SourceOption<?> option, @Nullable Object value) {
        return new InvalidKafkaSourceException(
                Setting.OPTION,
                option.key(),
                value,
                "Source option " + option.key() + " is " + value + "; it must be " + option.requirement(),
                "the value must be " + option.requirement(),
                "Use a value " + option.requirement() + ", or leave " + option.key() + " unset (default "
                        + option.defaultWritten() + ").");
    }

    /** Throws unless {@code ok}: declared setting {@code option}'s {@code value} breaks a rule across settings. */
    static void requireOption(
            boolean ok,
            SourceOption<?> option,
            @Nullable Object value,
            String javaMessage,
            String problem,
            String action) {
        if (!ok) {
            throw new InvalidKafkaSourceException(Setting.OPTION, option.key(), value, javaMessage, problem, action);
        }
    }

    /** {@code value}, or this exception when it is null or blank. */
    static String requireText(String value, Setting setting, String what) {
        if (value == null || value.isBlank()) {
            throw new InvalidKafkaSourceException(
                    setting,
                    value,
                    "The " + what + " must not be blank",
                    "the " + what + " is blank",
                    "Set {" + setting + "} to a value, or remove it.");
        }
        return value;
    }

    /** Throws unless {@code set}: a setting {@code build()} needs is missing. */
    static void requireSet(boolean set, Setting setting, String javaMessage, String problem, String action) {
        require(set, setting, null, javaMessage, problem, action);
    }

    /** Throws unless {@code ok}: {@code setting}'s {@code value} breaks a rule. */
    static void require(
            boolean ok, Setting setting, @Nullable Object value, String javaMessage, String problem, String action) {
        if (!ok) {
            throw new InvalidKafkaSourceException(setting, value, javaMessage, problem, action);
        }
    }

    /** Throws unless {@code positive}: {@code what} (e.g. "Metadata timeout") is {@code value}, which must be positive. */
    static void requirePositive(boolean positive, @Nullable Object value, Setting setting, String what, String fix) {
        if (!positive) {
            throw new InvalidKafkaSourceException(
                    setting,
                    value,
                    what + " is " + value + "; expected a positive value",
                    "the value must be positive",
                    fix);
        }
    }
}
