package io.streamsplit.boot.test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A record a test read back from a topic: key and value as UTF-8 text (and raw), headers, timestamp
 * and position.
 *
 * <pre>{@code
 * import io.streamsplit.boot.test.ReceivedRecord;
 *
 * ReceivedRecord total = pipeline.awaitRecords("customer-totals", 1).get(0);
 * assertThat(total.key()).isEqualTo("alice");
 * }</pre>
 *
 * @param topic the topic
 * @param partition the partition
 * @param offset the offset
 * @param timestamp the record's timestamp
 * @param rawKey the key bytes, or {@code null}
 * @param rawValue the value bytes, or {@code null} (a tombstone)
 * @param headers the headers as UTF-8 text (the last value of a repeated header)
 */
public record ReceivedRecord(
        String topic,
        int partition,
        long offset,
        Instant timestamp,
        byte @Nullable [] rawKey,
        byte @Nullable [] rawValue,
        Map<String, String> headers) {

    /** The key as UTF-8 text, or {@code null}. */
    public @Nullable String key() {
        return rawKey == null ? null : new String(rawKey, StandardCharsets.UTF_8);
    }

    /** The value as UTF-8 text, or {@code null} for a tombstone. */
    public @Nullable String value() {
        return rawValue == null ? null : new String(rawValue, StandardCharsets.UTF_8);
    }

    /** One line for failure messages: where it is, its key and value (shortened). */
    String describe() {
        String value = value();
        if (value != null && value.length() > 120) {
            value = value.substring(0, 117) + "...";
        }
        return topic + "-" + partition + "@" + offset + " key=" + key() + " value=" + value;
    }
}
