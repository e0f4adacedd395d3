package io.streamsplit.boot.test;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import org.jspecify.annotations.Nullable;

/**
 * A record a source sent to its dead-letter topic, with the error headers decoded.
 *
 * <pre>{@code
 * import io.streamsplit.boot.test.DeadLetter;
 *
 * DeadLetter dead = pipeline.awaitDeadLetters("orders", 1).get(0);
 * assertThat(dead.originalOffset()).isEqualTo(2);
 * assertThat(dead.exceptionMessage()).contains("not an order");
 * }</pre>
 *
 * @param source the source that could not handle the record
 * @param originalTopic the topic it was read from
 * @param originalPartition its partition
 * @param originalOffset its offset
 * @param exceptionClass the class of the exception that made it bad
 * @param exceptionMessage the exception's message
 * @param record the dead-letter record itself (original key, value and headers)
 */
public record DeadLetter(
        @Nullable String source,
        @Nullable String originalTopic,
        int originalPartition,
        long originalOffset,
        @Nullable String exceptionClass,
        @Nullable String exceptionMessage,
        ReceivedRecord record) {

    static DeadLetter of(ReceivedRecord record) {
        var headers = record.headers();
        return new DeadLetter(
                headers.get(DeadLetterRecord.HEADER_SOURCE),
                headers.get(DeadLetterRecord.HEADER_TOPIC),
                parseInt(headers.get(DeadLetterRecord.HEADER_PARTITION)),
                parseLong(headers.get(DeadLetterRecord.HEADER_OFFSET)),
                headers.get(DeadLetterRecord.HEADER_EXCEPTION_CLASS),
                headers.get(DeadLetterRecord.HEADER_EXCEPTION_MESSAGE),
                record);
    }

    /** The original value as UTF-8 text. */
    public @Nullable String value() {
        return record.value();
    }

    private static int parseInt(@Nullable String text) {
        return text == null ? -1 : Integer.parseInt(text);
    }

    private static long parseLong(@Nullable String text) {
        return text == null ? -1 : Long.parseLong(text);
    }
}
