package io.streamsplit.connector.kafka.source;

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
 * like any element; {@link #toProducerRecord(String)} turns it into a dead-letter topic record.
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

    public @Nullable String sourceName;
    public @Nullable String topic;
    public int partition;
    public long offset;
    public long timestamp;
    public byte @Nullable [] key;
    public byte @Nullable [] value;
    public String[] headerKeys = new String[0];
    public byte[][] headerValues = new byte[0][];
    public @Nullable String exceptionClass;
    public @Nullable String exceptionMessage;

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
        dead.key = record.key();
        dead.value = record.value();
        Header[] headers = record.headers().toArray();
        dead.headerKeys = new String[headers.length];
        dead.headerValues = new byte[headers.length][];
        for (int i = 0; i < headers.length; i++) {
            dead.headerKeys[i] = headers[i].key();
            dead.headerValues[i] = headers[i].value();
        }
        dead.exceptionClass = error.getClass().getName();
        dead.exceptionMessage = String.valueOf(error.getMessage());
        return dead;
    }

    /**
     * A record for {@code deadLetterTopic}: the original key, value and headers, followed by the
     * {@code streamsplit.dlt.*} error headers, with the original timestamp.
     */
    public ProducerRecord<byte[], byte[]> toProducerRecord(String deadLetterTopic) {
        List<Header> headers = new ArrayList<>(headerKeys.length + 6);
        for (int i = 0; i < headerKeys.length; i++) {
            headers.add(new RecordHeader(headerKeys[i], headerValues[i]));
        }
        headers.add(header(HEADER_SOURCE, sourceName));
        headers.add(header(HEADER_TOPIC, topic));
        headers.add(header(HEADER_PARTITION, String.valueOf(partition)));
        headers.add(header(HEADER_OFFSET, String.valueOf(offset)));
        headers.add(header(HEADER_EXCEPTION_CLASS, exceptionClass));
        headers.add(header(HEADER_EXCEPTION_MESSAGE, exceptionMessage));
        return new ProducerRecord<>(deadLetterTopic, null, timestamp >= 0 ? timestamp : null, key, value, headers);
    }

    private static @Nullable Header header(String key, @Nullable String value) {
        return new RecordHeader(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetterRecord other
                && partition == other.partition
                && offset == other.offset
                && Objects.equals(topic, other.topic)
                && Objects.equals(sourceName, other.sourceName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset);
    }

    @Override
    public String toString() {
        return "DeadLetterRecord{" + topic + "-" + partition + "@" + offset + ", " + exceptionClass + ": "
                + exceptionMessage + '}';
    }
}
