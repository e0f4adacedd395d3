package io.streamsplit.connector.kafka.format;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;

/**
 * What every built-in format shares: it reads and writes the same element type, a Kafka topic never
 * ends inside a value, and both sides prepare alike when Flink opens them ({@link #prepare()}).
 */
abstract class TwoWayFormat<T> implements DeserializationSchema<T>, SerializationSchema<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public final void open(DeserializationSchema.InitializationContext context) {
        prepare();
    }

    @Override
    public final void open(SerializationSchema.InitializationContext context) {
        prepare();
    }

    /** Builds what the format needs on the TaskManager (readers, mappers); nothing by default. */
    void prepare() {}

    @Override
    public final boolean isEndOfStream(T nextElement) {
        return false;
    }
}
