package io.streamsplit.boot.autoconfigure.diagnostics;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

/**
 * A {@code streamsplit.*} value Spring Boot cannot convert ({@code parallelism: two}, {@code interval:
 * 10 sec}, {@code managed-memory: 64 megs}) is reported in StreamSplit's form: the property, the
 * value as written, where it was set, and the form that is expected. Ahead of Spring Boot's own
 * binding analyzer, which says "Update your application's configuration".
 */
class StreamSplitBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        ConfigurationProperty property = cause.getProperty();
        String name = property != null
                ? property.getName().toString()
                : cause.getName().toString();
        if (!name.startsWith("streamsplit.") || property == null) {
            return null;
        }
        Class<?> target = cause.getTarget().getType().resolve(Object.class);
        // an enum's conversion failure names a Java class ("No enum constant io.…Kind.NONE"): the kinds say it all
        String reason = target.isEnum() ? null : rootMessage(cause);
        StringBuilder description = new StringBuilder("Invalid StreamSplit configuration.\n\n")
                .append("    Property: ")
                .append(name)
                .append('\n')
                .append("    Value:    '")
                .append(property.getValue())
                .append("'\n");
        if (property.getOrigin() != null) {
            description.append("    Origin:   ").append(property.getOrigin()).append('\n');
        }
        description
                .append("    Problem:  the value is not ")
                .append(expected(target))
                .append(reason == null ? "" : " (" + reason + ")");
        String action = "Set " + name + " to " + expected(target)
                + UnsetMeanings.of(name)
                        .map(meaning -> ", or remove it: unset means " + meaning)
                        .orElse("")
                + ".";
        return new FailureAnalysis(description.toString(), action, cause);
    }

    /** What a value of {@code type} looks like, in words. */
    static String expected(Class<?> type) {
        if (type == Integer.class
                || type == int.class
                || type == Long.class
                || type == long.class
                || type == Short.class
                || type == short.class) {
            return "a whole number, e.g. 2";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Duration.class) {
            return "a duration such as 10s, 500ms, 5m or PT10S (a number alone means milliseconds)";
        }
        if (type == DataSize.class) {
            return "a size such as 64MB, 512KB or 1GB (a number alone means bytes)";
        }
        if (type == Instant.class) {
            return "an ISO-8601 instant such as 2026-01-31T00:00:00Z, or epoch milliseconds";
        }
        if (type == Class.class) {
            return "the fully qualified name of a class on the application's classpath, e.g. com.acme.Order";
        }
        if (type.isEnum()) {
            // as YAML writes them (at-least-once); Boot also takes any case and '_'
            return "one of "
                    + Arrays.stream(type.getEnumConstants())
                            .map(constant -> ((Enum<?>) constant)
                                    .name()
                                    .toLowerCase(Locale.ROOT)
                                    .replace('_', '-'))
                            .collect(Collectors.joining(", "));
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list (comma-separated, or one entry per line)";
        }
        if (type == InetAddress.class) {
            return "a host name or IP address";
        }
        return "a " + type.getSimpleName();
    }

    private static @Nullable String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == failure ? null : root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
