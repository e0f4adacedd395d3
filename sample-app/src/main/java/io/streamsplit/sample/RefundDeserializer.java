package io.streamsplit.sample;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The deserializer extension point, using more than the value: a refund record has the customer
 * as its key, {@code refundId;amountCents} as its value, and the record timestamp as event time.
 */
public class RefundDeserializer implements KafkaRecordDeserializer<Order> {

    private static final long serialVersionUID = 1L;

    @Override
    public Order deserialize(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null) {
            throw new IllegalArgumentException("a refund needs the customer as its record key");
        }
        String[] fields = new String(record.value(), StandardCharsets.UTF_8).split(";");
        return new Order(
                fields[0],
                new String(record.key(), StandardCharsets.UTF_8),
                -Long.parseLong(fields[1]),
                record.timestamp());
    }
}
