package io.streamsplit.connector.kafka.source;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.jspecify.annotations.Nullable;

/**
 * A record a source could not handle, kept raw: original key, value and headers, where it came
 * from, and why it failed. A Flink POJO (public fields, no Kryo), so it travels through the job
 * like any element; {@link #toProducerRecord(String)} turns it into a dead-letter topic record
 * carrying both the {@code streamsplit.dlt.*} headers and spring-kafka's {@code kafka_dlt-*}
 * headers (the names and value forms of its {@code DeadLetterPublishingRecoverer}), so the tools
 * a Spring application already has for dead letters read ours.
 *
 * <pre>{@code
 * KafkaSourceStream<Order> orders = KafkaSourceStream.of(env, source, watermarks, "orders");
 * orders.deadLetters().map(dead -> dead.toProducerRecord("orders.dlq")) ... // to a Kafka sink
 * }</pre>
 */
@PublicEvolving
public class DeadLetterRecord {

    /** Header: the topic the record was read from. */
    public static final String HEADER_TOPIC = "streamsplit.dlt.original-topic";
    /** Header: the partition the record was read from. */
    public static final String HEADER_PARTITION = "streamsplit.dlt.original-partition";
    /** Header: the offset of the record. */
    public static final String HEADER_OFFSET = "streamsplit.dlt.original-offset";
    /** Header: the class of the exception that made the record bad. */
    public static final String HEADER_EXCEPTION_CLASS = "streamsplit.dlt.exception-class";
    /** Header: the exception message. */
    public static final String HEADER_EXCEPTION_MESSAGE = "streamsplit.dlt.exception-message";
    /** Header: the name of the source that read the record. */
    public static final String HEADER_SOURCE = "streamsplit.dlt.source";
    /** Header: the pipeline step whose code failed on the record (absent for a record the source could not read). */
    public static final String HEADER_STEP = "streamsplit.dlt.step";
    /**
     * Header: {@code json} when the value is not a Kafka record but the element a step behind a key-by or
     * rebalance failed on, written as JSON (such a dead letter has no original topic, partition or offset).
     */
    public static final String HEADER_VALUE_FORMAT = "streamsplit.dlt.value-format";

    /** The prefix of every header a dead letter adds; a replayed record goes back without them. */
    public static final String HEADER_PREFIX = "streamsplit.dlt.";

    /**
     * The prefix of spring-kafka's dead-letter headers ({@code KafkaHeaders.DLT_*}): the original
     * topic as UTF-8, partition as a 4-byte and offset and timestamp as 8-byte big-endian numbers,
     * the timestamp type's name, and the exception's class, cause class, message and stack trace as
     * UTF-8 text. They are data: nothing here or in spring-kafka deserializes them as objects.
     */
    public static final String SPRING_HEADER_PREFIX = "kafka_dlt-";

    /** The longest exception message a dead letter keeps, in characters. */
    static final int MAX_MESSAGE_CHARS = 2_048;

    /** The longest stack trace a dead letter keeps, in characters. */
    static final int MAX_STACK_TRACE_CHARS = 8_192;

    public @Nullable String sourceName;
    public @Nullable String topic;
    public int partition;
    public long offset;
    public long timestamp;
    public @Nullable String timestampType;
    public byte @Nullable [] key;
    public byte @Nullable [] value;
    public String[] headerKeys = new String[0];
    public byte[][] headerValues = new byte[0][];
    public @Nullable String exceptionClass;
    public @Nullable String exceptionMessage;
    public @Nullable String causeClass;
    public @Nullable String stackTrace;
    public @Nullable String step;
    public @Nullable String valueFormat;

    /** For Flink's POJO serializer. */
    public DeadLetterRecord() {}

    /** The dead letter for {@code record}, which failed with {@code error} in source {@code sourceName}. */
    public static DeadLetterRecord of(String sourceName, ConsumerRecord<byte[], byte[]> record, Throwable error) {
        DeadLetterRecord dead = new DeadLetterRecord();
        dead.sourceName = sourceName;
        dead.topic = record.topic();
        dead.partition = record.partition();
        dead.offset = record.offset();
        dead.timestamp = record.timestamp();
        dead.timestampType = record.timestampType().toString();
        dead.key = record.key();
        dead.value = record.value();
        Header[] headers = record.headers().toArray();
        dead.headerKeys = new String[headers.length];
        dead.headerValues = new byte[headers.length][];
        for (int i = 0; i < headers.length; i++) {
            dead.headerKeys[i] = headers[i].key();
            dead.headerValues[i] = headers[i].value();
        }
        dead.failedWith(error);
        return dead;
    }

    /**
     * The dead letter of pipeline step {@code step} for {@code record}, read by source {@code sourceName}: the
     * record as read from Kafka, so a replay sends it through the pipeline again.
     */
    public static DeadLetterRecord ofStep(
            String step, String sourceName, ConsumerRecord<byte[], byte[]> record, Throwable error) {
        DeadLetterRecord dead = of(sourceName, record, error);
        dead.step = step;
        return dead;
    }

    /**
     * The dead letter of pipeline step {@code step} for an element that is no Kafka record any more (the step
     * runs behind a key-by or rebalance): {@code value} is the element as JSON, marked so by the {@code
     * streamsplit.dlt.value-format} header; no original topic, partition or offset.
     */
    public static DeadLetterRecord ofElement(String step, byte[] value, long timestamp, Throwable error) {
        DeadLetterRecord dead = new DeadLetterRecord();
        dead.step = step;
        dead.partition = -1;
        dead.offset = -1;
        dead.timestamp = timestamp;
        dead.value = value;
        dead.valueFormat = "json";
        dead.failedWith(error);
        return dead;
    }

    private void failedWith(Throwable error) {
        this.exceptionClass = error.getClass().getName();
        this.exceptionMessage = capped(String.valueOf(error.getMessage()), MAX_MESSAGE_CHARS);
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        this.causeClass = root.getClass().getName(); // spring-kafka's form: the root cause, or the error itself
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        this.stackTrace = capped(trace.toString(), MAX_STACK_TRACE_CHARS);
    }

    /**
     * A record for {@code deadLetterTopic}: the original key, value and headers (less the
     * dead-letter headers of an earlier failure, so a record that fails again after a replay says
     * only why it failed this time), followed by the {@code streamsplit.dlt.*} and {@code
     * kafka_dlt-*} error headers, with the original timestamp.
     */
    public ProducerRecord<byte[], byte[]> toProducerRecord(String deadLetterTopic) {
        List<Header> headers = new ArrayList<>(headerKeys.length + 16);
        for (int i = 0; i < headerKeys.length; i++) {
            if (!isDeadLetterHeader(headerKeys[i])) {
                headers.add(new RecordHeader(headerKeys[i], headerValues[i]));
            }
        }
        if (sourceName != null) {
            headers.add(header(HEADER_SOURCE, sourceName));
        }
        if (step != null) {
            headers.add(header(HEADER_STEP, step));
        }
        if (topic != null) {
            headers.add(header(HEADER_TOPIC, topic));
            headers.add(header(HEADER_PARTITION, String.valueOf(partition)));
            headers.add(header(HEADER_OFFSET, String.valueOf(offset)));
        }
        if (valueFormat != null) {
            headers.add(header(HEADER_VALUE_FORMAT, valueFormat));
        }
        headers.add(header(HEADER_EXCEPTION_CLASS, exceptionClass));
        headers.add(header(HEADER_EXCEPTION_MESSAGE, exceptionMessage));
        addSpringKafkaHeaders(headers);
        return new ProducerRecord<>(deadLetterTopic, null, timestamp >= 0 ? timestamp : null, key, value, headers);
    }

    /** Whether {@code key} is a header a dead letter adds (ours or spring-kafka's). */
    public static boolean isDeadLetterHeader(String key) {
        return key.startsWith(HEADER_PREFIX) || key.startsWith(SPRING_HEADER_PREFIX);
    }

    private void addSpringKafkaHeaders(List<Header> headers) {
        if (topic == null) {
            addSpringKafkaExceptionHeaders(headers);
            return;
        }
        headers.add(header(SPRING_HEADER_PREFIX + "original-topic", topic));
        headers.add(new RecordHeader(
                SPRING_HEADER_PREFIX + "original-partition",
                ByteBuffer.allocate(Integer.BYTES).putInt(partition).array()));
        headers.add(new RecordHeader(
                SPRING_HEADER_PREFIX + "original-offset",
                ByteBuffer.allocate(Long.BYTES).putLong(offset).array()));
        headers.add(new RecordHeader(
                SPRING_HEADER_PREFIX + "original-timestamp",
                ByteBuffer.allocate(Long.BYTES).putLong(timestamp).array()));
        if (timestampType != null) {
            headers.add(header(SPRING_HEADER_PREFIX + "original-timestamp-type", timestampType));
        }
        addSpringKafkaExceptionHeaders(headers);
    }

    private void addSpringKafkaExceptionHeaders(List<Header> headers) {
        headers.add(header(SPRING_HEADER_PREFIX + "exception-fqcn", exceptionClass));
        headers.add(header(SPRING_HEADER_PREFIX + "exception-cause-fqcn", causeClass));
        headers.add(header(SPRING_HEADER_PREFIX + "exception-message", exceptionMessage));
        if (stackTrace != null) {
            headers.add(header(SPRING_HEADER_PREFIX + "exception-stacktrace", stackTrace));
        }
    }

    private static Header header(String key, @Nullable String value) {
        return new RecordHeader(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static String capped(String text, int maxChars) {
        return text.length() <= maxChars
                ? text
                : text.substring(0, maxChars) + "... (cut at " + maxChars + " characters)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetterRecord other
                && partition == other.partition
                && offset == other.offset
                && Objects.equals(topic, other.topic)
                && Objects.equals(sourceName, other.sourceName)
                && Objects.equals(step, other.step);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset);
    }

    @Override
    public String toString() {
        return "DeadLetterRecord{" + (step == null ? "" : "step " + step + ", ") + topic + "-" + partition + "@"
                + offset + ", " + exceptionClass + ": " + exceptionMessage + '}';
    }
}
