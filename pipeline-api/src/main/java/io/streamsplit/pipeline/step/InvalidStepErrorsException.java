package io.streamsplit.pipeline.step;

/**
 * A processing-error setting of a step that cannot work: which setting (as YAML names it under {@code
 * streamsplit.processing-errors}: {@code retries}, {@code back-off}, …), the bad value, what is wrong and what to
 * do, so the starter can name the property path without checking the rule again.
 */
public final class InvalidStepErrorsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;
    private final String value;
    private final String problem;
    private final String action;

    InvalidStepErrorsException(String setting, Object value, String problem, String action) {
        super(setting + " is '" + value + "': " + problem + ". " + action);
        this.setting = setting;
        this.value = String.valueOf(value);
        this.problem = problem;
        this.action = action;
    }

    /** The setting, e.g. {@code retries} or {@code dead-letter-topic}. */
    public String setting() {
        return setting;
    }

    /** The value as given. */
    public String value() {
        return value;
    }

    /** What is wrong with it. */
    public String problem() {
        return problem;
    }

    /** What to do. */
    public String action() {
        return action;
    }
}
