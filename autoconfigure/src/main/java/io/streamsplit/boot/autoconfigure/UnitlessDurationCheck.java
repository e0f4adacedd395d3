package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.flink.FlinkCheckpointingProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.time.Duration;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Durations that are almost certainly a mistake: Spring Boot reads a number without a unit as
 * milliseconds, so {@code checkpointing.interval: 10} checkpoints a hundred times a second. A
 * checkpoint interval, timeout or a source's idle timeout or discovery interval below what a pipeline
 * can mean fails startup with the value as written and the fix; a number without a unit above that
 * floor is taken as milliseconds, with one warning that says so. A source's declared intervals
 * ({@link SourceOption#interval}) bring their floor with them.
 */
final class UnitlessDurationCheck {

    private static final Logger LOG = LoggerFactory.getLogger(UnitlessDurationCheck.class);
    private static final Pattern NO_UNIT = Pattern.compile("\\s*-?\\d+\\s*");

    private final Environment environment;

    private UnitlessDurationCheck(Environment environment) {
        this.environment = environment;
    }

    /** Checks the durations of {@code properties} as {@code environment} has them written. */
    static void check(StreamSplitProperties properties, Environment environment) {
        UnitlessDurationCheck durations = new UnitlessDurationCheck(environment);
        FlinkCheckpointingProperties checkpointing = properties.getFlink().getCheckpointing();
        String flink = "streamsplit.flink.checkpointing.";
        durations.atLeast(flink + "interval", checkpointing.getInterval(), Duration.ofMillis(100), "10s");
        durations.atLeast(flink + "timeout", checkpointing.getTimeout(), Duration.ofSeconds(1), "10m");
        Binder binder = Binder.get(environment);
        properties.getKafka().getSources().forEach((name, source) -> {
            String p = KafkaSources.prefix(name);
            for (SourceOption<?> option : SourceOptions.all()) {
                if (option.minimum() instanceof Duration minimum) {
                    String property = p + option.key();
                    durations.atLeast(
                            property, binder.bind(property, Duration.class).orElse(null), minimum, option.example());
                }
            }
            durations.atLeast(
                    p + "watermarks.idle-timeout",
                    source.getWatermarks().getIdleTimeout(),
                    Duration.ofMillis(100),
                    "5s");
        });
    }

    private void atLeast(String property, @Nullable Duration value, Duration floor, String example) {
        if (value == null || value.isNegative() || value.isZero()) {
            return; // unset, or refused where the value is used, with its own message
        }
        String written = environment.getProperty(property);
        boolean noUnit = written != null && NO_UNIT.matcher(written).matches();
        if (value.compareTo(floor) < 0) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    written != null ? written : value,
                    "that is " + value.toMillis() + " ms" + (noUnit ? " (a number without a unit is milliseconds)" : "")
                            + ", below the " + floor.toMillis() + " ms this setting can mean",
                    "Write the duration with its unit, e.g. " + example + ".");
        }
        if (noUnit && written != null) {
            LOG.warn(
                    "{} is '{}', read as {} ms: a number without a unit is milliseconds. Write {}ms, or the unit you"
                            + " meant (e.g. {}).",
                    property,
                    written.trim(),
                    value.toMillis(),
                    written.trim(),
                    example);
        }
    }
}
