package io.streamsplit.boot.config;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The range checks every {@code streamsplit.*} number, duration and size goes through, so each
 * kind of mistake is reported the same way wherever the property lives.
 */
public final class PropertyChecks {

    private PropertyChecks() {}

    /** {@code value} if it is a positive duration; otherwise a failure naming {@code property}. */
    public static Duration positive(String property, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    value,
                    "the duration must be positive",
                    "Set a positive duration such as 10s or 500ms"
                            + (value == null ? "" : ", or remove the property to use the default") + ".");
        }
        return value;
    }

    /** {@code value} if it is at least 1; otherwise a failure naming {@code property}. */
    public static int positive(String property, int value) {
        if (value <= 0) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    value,
                    "the value must be at least 1",
                    "Set a positive number, or remove the property to use the default.");
        }
        return value;
    }

    /** {@code bytes} if it is a positive size; otherwise a failure naming {@code property}. */
    public static long positive(String property, long bytes) {
        if (bytes <= 0) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    bytes + "B",
                    "the size must be positive",
                    "Set a size such as 64MB, or remove the property to use the default.");
        }
        return bytes;
    }

    /** {@code value} if it is 0 or more; otherwise a failure naming {@code property}. */
    public static int notNegative(String property, int value) {
        if (value < 0) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    value,
                    "the value must not be negative",
                    "Set 0 or more, or remove the property to use the default.");
        }
        return value;
    }

    /**
     * Fails, naming {@code property}, when {@code value} is a negative duration; {@code action} says what to set (and
     * what 0 or unset means there).
     */
    public static void requireNotNegative(String property, @Nullable Duration value, String action) {
        if (value != null && value.isNegative()) {
            throw new InvalidStreamSplitConfigurationException(
                    property, value, "the duration must not be negative", action);
        }
    }
}
