package io.streamsplit.boot.config;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A {@code streamsplit.*} setting (or a bean it names) that cannot work. Carries the property
 * path, the bad value, what is wrong and how to fix it; the auto-configuration's failure analyzer
 * turns it into Spring Boot's startup failure report.
 */
public class InvalidStreamSplitConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Property names whose values are never printed, like Spring Boot's own sanitizing. */
    private static final Pattern SECRET =
            Pattern.compile("password|secret|key|token|credential|jaas", Pattern.CASE_INSENSITIVE);

    /** What messages show instead of a secret value. */
    public static final String MASK = "****** (masked)";

    private final String property;
    private final transient @Nullable Object value;
    private final String problem;
    private final String action;

    public InvalidStreamSplitConfigurationException(
            String property, @Nullable Object value, String problem, String action) {
        this(property, value, problem, action, null);
    }

    public InvalidStreamSplitConfigurationException(
            String property, @Nullable Object value, String problem, String action, @Nullable Throwable cause) {
        super(property + " = " + (isSecret(property) ? MASK : value) + ": " + problem + ". " + action, cause);
        this.property = property;
        this.value = value;
        this.problem = problem;
        this.action = action;
    }

    /** Whether the value of {@code property} is a secret that must not appear in messages. */
    static boolean isSecret(String property) {
        String setting = property.substring(property.lastIndexOf('.') + 1);
        // a sink's key (a field name) and key-serializer (a bean name) are not key material
        if (property.startsWith("streamsplit.kafka.sinks.") && NOT_SECRET.contains(setting)) {
            return false;
        }
        return SECRET.matcher(property).find();
    }

    private static final java.util.Set<String> NOT_SECRET = java.util.Set.of("key", "key-serializer");

    /** Whether the value of this property is a secret (a password, a key) that messages mask. */
    public boolean isValueSecret() {
        return isSecret(property);
    }

    /** The full property path, e.g. {@code streamsplit.kafka.sources.orders.topics}. */
    public String getProperty() {
        return property;
    }

    /** The bad value as configured ({@code null} when the property is missing). */
    public @Nullable Object getValue() {
        return value;
    }

    /** What is wrong. */
    public String getProblem() {
        return problem;
    }

    /** How to fix it. */
    public String getAction() {
        return action;
    }
}
