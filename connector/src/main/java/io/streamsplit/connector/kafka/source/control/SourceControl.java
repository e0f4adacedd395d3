package io.streamsplit.connector.kafka.source.control;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What an operator wants a running source to do: read or stay paused, and at which rate. One
 * record per source on the source's control topic (key: the source name, value: {@link #encode()});
 * the latest record wins, so the topic can be compacted.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.source.control.SourceControl;
 *
 * byte[] pause = SourceControl.RUNNING.withPaused(true).encode();        // "paused=true"
 * byte[] slow = SourceControl.RUNNING.withMaxRecordsPerSecond(500.0).encode();
 * }</pre>
 *
 * @param paused whether the source's readers stop fetching (splits, offsets and checkpoints stay)
 * @param maxRecordsPerSecond the source's rate over all readers; {@code null}: as configured at build
 *     time; {@code 0}: unthrottled
 */
public record SourceControl(boolean paused, @Nullable Double maxRecordsPerSecond) implements Serializable {

    /** Reading, at the configured rate: what a source does when nobody said otherwise. */
    public static final SourceControl RUNNING = new SourceControl(false, null);

    public SourceControl {
        if (maxRecordsPerSecond != null
                && (maxRecordsPerSecond < 0 || maxRecordsPerSecond.isNaN() || maxRecordsPerSecond.isInfinite())) {
            throw new IllegalArgumentException("max records per second is " + maxRecordsPerSecond
                    + "; expected a positive rate, 0 for unthrottled, or none for the configured rate");
        }
    }

    /** The same, paused or not. */
    public SourceControl withPaused(boolean paused) {
        return new SourceControl(paused, maxRecordsPerSecond);
    }

    /** The same at another rate ({@code null}: the configured one, {@code 0}: unthrottled). */
    public SourceControl withMaxRecordsPerSecond(@Nullable Double maxRecordsPerSecond) {
        return new SourceControl(paused, maxRecordsPerSecond);
    }

    /** The rate in force given the {@code configured} one (0: unthrottled). */
    public double effectiveRate(double configured) {
        return maxRecordsPerSecond != null ? maxRecordsPerSecond : configured;
    }

    /** {@code paused=true} and, when set, {@code max-records-per-second=500.0}, one per line (UTF-8). */
    public byte[] encode() {
        String text = "paused=" + paused
                + (maxRecordsPerSecond != null ? "\nmax-records-per-second=" + maxRecordsPerSecond : "");
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Reads what {@link #encode()} wrote; unknown lines are ignored so that newer writers stay readable. */
    public static SourceControl decode(byte[] value) {
        boolean paused = false;
        Double rate = null;
        for (String line : new String(value, StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = line.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String text = line.substring(eq + 1).trim();
            try {
                switch (key) {
                    case "paused" -> paused = Boolean.parseBoolean(text);
                    case "max-records-per-second" -> rate = Double.valueOf(text);
                    default -> {}
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("control record line '" + line + "' has no number", e);
            }
        }
        return new SourceControl(paused, rate);
    }
}
