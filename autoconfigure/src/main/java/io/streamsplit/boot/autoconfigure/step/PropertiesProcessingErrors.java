package io.streamsplit.boot.autoconfigure.step;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.step.ProcessingErrors;
import io.streamsplit.pipeline.ProcessingErrorPolicy;
import io.streamsplit.pipeline.step.InvalidStepErrorsException;
import io.streamsplit.pipeline.step.StepErrorRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Maps {@code streamsplit.processing-errors} (and what a step's code set) onto {@link StepErrorRules}: each
 * setting is taken from the step's YAML, else its code, else the defaults, and a refusal of the rules names where
 * the bad value came from — the property path, or the {@code pipeline.step(...)} call.
 *
 * <pre>{@code
 * StepErrorRules rules = new PropertiesProcessingErrors(properties, environment, classLoader).rules("price", code);
 * }</pre>
 */
public final class PropertiesProcessingErrors implements ProcessingErrors {

    static final String PREFIX = "streamsplit.processing-errors.";
    private static final Pattern NO_UNIT = Pattern.compile("\\s*-?\\d+(\\.\\d+)?\\s*");

    private final ProcessingErrorsProperties properties;
    private final Environment environment;
    private final @Nullable ClassLoader classLoader;
    private final TopicCheck topicCheck;

    /** Checks a dead-letter topic only a step's code names (YAML's are checked with the others at start-up). */
    @FunctionalInterface
    public interface TopicCheck {
        /** Refuses (or creates) {@code topic}, reporting it under {@code origin}. */
        void check(String step, String origin, String topic);
    }

    public PropertiesProcessingErrors(
            ProcessingErrorsProperties properties,
            Environment environment,
            @Nullable ClassLoader classLoader,
            TopicCheck topicCheck) {
        this.properties = properties;
        this.environment = environment;
        this.classLoader = classLoader;
        this.topicCheck = topicCheck;
    }

    /** Checks the defaults at start-up: a bad default fails every step, so it fails before any job is built. */
    public void checkDefaults() {
        unitless(PREFIX + "back-off");
        unitless(PREFIX + "max-back-off");
        properties.getSteps().keySet().forEach(step -> {
            unitless(ProcessingErrors.prefix(step) + "back-off");
            unitless(ProcessingErrors.prefix(step) + "max-back-off");
        });
        resolve(null, new FromCode(null, null, null, null, List.of()));
    }

    @Override
    public Set<String> configuredSteps() {
        return properties.getSteps().keySet();
    }

    @Override
    public StepErrorRules rules(String step, FromCode code) {
        return resolve(step, code);
    }

    private StepErrorRules resolve(@Nullable String step, FromCode code) {
        ProcessingErrorsProperties.StepProperties own =
                step == null ? null : properties.getSteps().get(step);
        StepErrorRules.Builder builder = StepErrorRules.builder();
        Map<String, String> origins = new LinkedHashMap<>();
        set(
                origins,
                "retries",
                step,
                own == null ? null : own.getRetries(),
                code.retries(),
                "retries",
                properties.getRetries(),
                builder::retries);
        set(
                origins,
                "back-off",
                step,
                own == null ? null : own.getBackOff(),
                code.backOff(),
                "backOff",
                properties.getBackOff(),
                builder::backOff);
        set(
                origins,
                "back-off-multiplier",
                step,
                own == null ? null : own.getBackOffMultiplier(),
                null,
                null,
                properties.getBackOffMultiplier(),
                builder::backOffMultiplier);
        set(
                origins,
                "max-back-off",
                step,
                own == null ? null : own.getMaxBackOff(),
                null,
                null,
                properties.getMaxBackOff(),
                builder::maxBackOff);
        set(
                origins,
                "policy",
                step,
                own == null ? null : own.getPolicy(),
                code.policy(),
                "policy",
                properties.getPolicy(),
                builder::policy);
        set(
                origins,
                "dead-letter-topic",
                step,
                own == null ? null : own.getDeadLetterTopic(),
                code.deadLetterTopic(),
                "deadLetterTopic",
                properties.getDeadLetterTopic(),
                builder::deadLetterTopic);
        List<String> notRetryable = new ArrayList<>(properties.getNotRetryable());
        checkClasses(PREFIX + "not-retryable", properties.getNotRetryable());
        notRetryable.addAll(code.notRetryable());
        if (own != null && step != null) {
            checkClasses(ProcessingErrors.prefix(step) + "not-retryable", own.getNotRetryable());
            notRetryable.addAll(own.getNotRetryable());
        }
        builder.notRetryable(notRetryable);
        StepErrorRules rules;
        try {
            rules = builder.build();
        } catch (InvalidStepErrorsException e) {
            String origin = origins.getOrDefault(e.setting(), PREFIX + e.setting());
            if (e.setting().equals("dead-letter-topic") && step != null) {
                origin = ProcessingErrors.prefix(step) + "dead-letter-topic";
            }
            throw refused(origin, e.value(), e, step);
        }
        String topicOrigin = origins.get("dead-letter-topic");
        if (step != null
                && rules.policy() == ProcessingErrorPolicy.DEAD_LETTER
                && rules.deadLetterTopic() != null
                && topicOrigin != null
                && topicOrigin.startsWith("pipeline.step(")) {
            topicCheck.check(step, topicOrigin, rules.deadLetterTopic());
        }
        return rules;
    }

    /**
     * Sets one setting from the step's YAML, else its code, else the defaults, and remembers where it came from.
     */
    private <T> void set(
            Map<String, String> origins,
            String key,
            @Nullable String step,
            @Nullable T fromStep,
            @Nullable T fromCode,
            @Nullable String codeMethod,
            @Nullable T fromDefaults,
            Consumer<T> setter) {
        String origin;
        T value;
        if (fromStep != null && step != null) {
            origin = ProcessingErrors.prefix(step) + key;
            value = fromStep;
        } else if (fromCode != null && step != null) {
            origin = "pipeline.step(\"" + step + "\")." + codeMethod + "(...)";
            value = fromCode;
        } else {
            origin = PREFIX + key;
            value = fromDefaults;
        }
        origins.put(key, origin);
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (InvalidStepErrorsException e) {
            throw refused(origin, value, e, step);
        }
    }

    private static InvalidStreamSplitConfigurationException refused(
            String origin, @Nullable Object value, InvalidStepErrorsException e, @Nullable String step) {
        return new InvalidStreamSplitConfigurationException(
                origin,
                value,
                (step == null ? "the steps' default " : "step '" + step + "': ") + e.problem(),
                e.action()
                        .replace(
                                "dead-letter-topic",
                                origin.endsWith("dead-letter-topic") ? origin : "dead-letter-topic"),
                e);
    }

    private void checkClasses(String property, List<String> names) {
        for (String name : names) {
            Class<?> type;
            try {
                type = ClassUtils.forName(name.trim(), classLoader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new InvalidStreamSplitConfigurationException(
                        property,
                        name,
                        "no such class on the application's class path",
                        "Name an exception class by its full name, e.g. java.lang.IllegalArgumentException.");
            }
            if (!Throwable.class.isAssignableFrom(type)) {
                throw new InvalidStreamSplitConfigurationException(
                        property, name, "not an exception class", "Name a subclass of java.lang.Throwable.");
            }
        }
    }

    /** A back-off written without a unit ({@code back-off: 100}) is refused: 100 what? */
    private void unitless(String property) {
        String written = environment.getProperty(property);
        if (written != null && NO_UNIT.matcher(written).matches()) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    written,
                    "a duration without a unit (Spring Boot would read it as " + written.trim() + " milliseconds)",
                    "Write it with its unit, e.g. " + written.trim() + "ms or " + written.trim() + "s.");
        }
    }

    /** The default policy, for the start-up check of the default dead-letter topic. */
    public ProcessingErrorPolicy defaultPolicy() {
        return properties.getPolicy();
    }

    /**
     * The dead-letter topics YAML names, by the property that names them: the default's (when some step may use
     * it) and each step's.
     */
    public Map<String, String> deadLetterTopics() {
        Map<String, String> topics = new LinkedHashMap<>();
        if (properties.getDeadLetterTopic() != null) {
            topics.put(PREFIX + "dead-letter-topic", properties.getDeadLetterTopic());
        }
        properties.getSteps().forEach((step, own) -> {
            if (own.getDeadLetterTopic() != null) {
                topics.put(ProcessingErrors.prefix(step) + "dead-letter-topic", own.getDeadLetterTopic());
            }
        });
        return topics;
    }
}
