package io.streamsplit.boot.autoconfigure;

/**
 * A {@code streamsplit.*} setting (or a bean it names) that cannot work. Carries the property
 * path, the bad value, what is wrong and how to fix it; {@link StreamSplitFailureAnalyzer} turns it
 * into Spring Boot's startup failure report.
 */
public class InvalidStreamSplitConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final transient Object value;
    private final String problem;
    private final String action;

    public InvalidStreamSplitConfigurationException(String property, Object value, String problem, String action) {
        this(property, value, problem, action, null);
    }

    public InvalidStreamSplitConfigurationException(String property, Object value, String problem, String action,
            Throwable cause) {
        super(property + " = " + value + ": " + problem + ". " + action, cause);
        this.property = property;
        this.value = value;
        this.problem = problem;
        this.action = action;
    }

    /** The full property path, e.g. {@code streamsplit.kafka.sources.orders.topics}. */
    public String getProperty() {
        return property;
    }

    /** The bad value as configured ({@code null} when the property is missing). */
    public Object getValue() {
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
