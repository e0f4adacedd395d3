package io.streamsplit.connector.kafka.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Where a {@link KafkaRecordEmitter} puts its elements. Each call emits one element downstream.
 *
 * @param <T> the element type
 */
@PublicEvolving
public interface KafkaRecordCollector<T> {

    /** Emits {@code element} with the Kafka record's timestamp as its event time. */
    void collect(T element);

    /** Emits {@code element} with the given event time (epoch milliseconds). */
    void collect(T element, long timestampMillis);
}
