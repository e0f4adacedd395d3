package io.streamsplit.connector.kafka.table;

import io.streamsplit.connector.kafka.source.KafkaRecordCollector;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/** Rows of a record, as the table's record-to-row schema makes them, handed to the StreamSplit reader. */
@Internal
final class RowRecordEmitter implements KafkaRecordEmitter<RowData> {

    private static final long serialVersionUID = 1L;

    private final KafkaRecordDeserializationSchema<RowData> rows;

    @SuppressWarnings("NullAway.Init") // set in open(), before the first record
    private transient Output output;

    RowRecordEmitter(KafkaRecordDeserializationSchema<RowData> rows) {
        this.rows = rows;
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) throws Exception {
        rows.open(context);
        output = new Output();
    }

    @Override
    public void emit(
            org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> record, KafkaRecordCollector<RowData> out)
            throws Exception {
        output.target = out;
        rows.deserialize(record, output);
    }

    @Override
    public String toString() {
        return "table rows of " + rows.getClass().getSimpleName();
    }

    /** The collector the schema writes to: the reader's, for the record at hand. */
    private static final class Output implements Collector<RowData> {
        @SuppressWarnings("NullAway.Init") // set before each record
        KafkaRecordCollector<RowData> target;

        @Override
        public void collect(RowData row) {
            target.collect(row);
        }

        @Override
        public void close() {}
    }
}
