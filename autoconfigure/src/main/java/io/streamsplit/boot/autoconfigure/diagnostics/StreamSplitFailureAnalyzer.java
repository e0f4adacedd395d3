package io.streamsplit.boot.autoconfigure.diagnostics;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;

/**
 * Reports an {@link InvalidStreamSplitConfigurationException} as: the property, its value, where
 * it was set (file and line when known), what is wrong, and the fix.
 */
class StreamSplitFailureAnalyzer extends AbstractFailureAnalyzer<InvalidStreamSplitConfigurationException> {

    private final Environment environment;

    StreamSplitFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidStreamSplitConfigurationException cause) {
        StringBuilder description = new StringBuilder("Invalid StreamSplit configuration.\n\n")
                .append("    Property: ")
                .append(cause.getProperty())
                .append('\n')
                .append("    Value:    ")
                // a multi-line value (a SQL statement in a YAML block) stays in the value's column
                .append(displayValue(cause).replace("\n", "\n              "))
                .append('\n');
        String origin = origin(cause.getProperty());
        if (origin != null) {
            description.append("    Origin:   ").append(origin).append('\n');
        }
        description.append("    Problem:  ").append(cause.getProblem());
        return new FailureAnalysis(description.toString(), cause.getAction(), cause);
    }

    /** The value as the user wrote it ("-5s", not the bound "PT-5S") when the environment has it; secrets masked. */
    private String displayValue(InvalidStreamSplitConfigurationException cause) {
        if (cause.isValueSecret()) {
            return InvalidStreamSplitConfigurationException.MASK;
        }
        String written = environment.getProperty(cause.getProperty());
        if (written != null) {
            return "'" + written + "'";
        }
        return cause.getValue() == null ? "(not set)" : "'" + cause.getValue() + "'";
    }

    @SuppressWarnings("unchecked")
    private @Nullable String origin(String property) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return null;
        }
        for (PropertySource<?> source : configurable.getPropertySources()) {
            if (source instanceof OriginLookup<?> lookup) {
                Origin origin = ((OriginLookup<String>) lookup).getOrigin(property);
                if (origin != null) {
                    return origin.toString();
                }
            }
        }
        return null;
    }
}
