package io.streamsplit.sample;

import io.streamsplit.connector.kafka.source.KafkaRecordCollector;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The record-emitter extension point: one Kafka record carries a batch of orders, one per line,
 * and becomes one element per order, each with its own event time (not the record's). A record
 * that is not a batch of orders throws, and the source's bad-record policy (dead-letter, in
 * application.yml) sends it to {@code orders.DLT}.
 */
public class OrderBatchEmitter implements KafkaRecordEmitter<Order> {

    private static final long serialVersionUID = 1L;

    @Override
    public void emit(ConsumerRecord<byte[], byte[]> record, KafkaRecordCollector<Order> out) {
        String batch = new String(record.value(), StandardCharsets.UTF_8);
        // parse the whole batch first: a bad line rejects the record without emitting half of it
        java.util.List<Order> orders =
                batch.lines().filter(line -> !line.isBlank()).map(Order::parse).toList();
        for (Order order : orders) {
            out.collect(order, order.timestamp);
        }
    }
}
