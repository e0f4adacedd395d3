package io.streamsplit.connector.kafka.source;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Runs a Flink {@link DeserializationSchema} on record values. One adapter from Flink's
 * {@link Collector} to our collector is reused for every record: this is the hot path of
 * value-only sources.
 */
final class ValueOnlyRecordEmitter<T> implements KafkaRecordEmitter<T> {

    private static final long serialVersionUID = 1L;

    private final DeserializationSchema<T> schema;

    @SuppressWarnings("NullAway.Init") // set in open(), before the first record
    private transient CollectorAdapter<T> adapter;

    ValueOnlyRecordEmitter(DeserializationSchema<T> schema) {
        this.schema = schema;
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) throws Exception {
        schema.open(context);
    }

    @Override
    public void emit(ConsumerRecord<byte[], byte[]> record, KafkaRecordCollector<T> out) throws Exception {
        if (adapter == null) {
            adapter = new CollectorAdapter<>();
        }
        adapter.target = out;
        schema.deserialize(record.value(), adapter);
    }

    @Override
    public String toString() {
        return "DeserializationSchema " + schema.getClass().getName();
    }

    private static final class CollectorAdapter<T> implements Collector<T> {
        @SuppressWarnings("NullAway.Init") // set before each record is handed on
        KafkaRecordCollector<T> target;

        @Override
        public void collect(T element) {
            target.collect(element);
        }

        @Override
        public void close() {}
    }
}
