package io.streamsplit.connector.kafka.source.reader;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Consecutive records of one split, handed to the record emitter in one call instead of one call
 * per record: Flink's source loop (poll the reader, count, check the mailbox and the output) then
 * runs once per run rather than once per record, which is most of the per-record cost for small
 * records. A run is cut at {@link #MAX_RECORDS} records or once it holds {@link #MAX_BYTES} of
 * keys and values, so one call never emits more than about a network buffer (32 KB) and
 * checkpoint barriers and timers wait at most that long. One instance is reused for a whole fetch.
 */
@Internal
final class KafkaRecordRun {

    static final int MAX_RECORDS = 256;
    static final int MAX_BYTES = 32 * 1024;

    private List<ConsumerRecord<byte[], byte[]>> records = List.of();
    private int from;
    private int to;

    /** A run of just {@code record}. */
    static KafkaRecordRun of(ConsumerRecord<byte[], byte[]> record) {
        KafkaRecordRun run = new KafkaRecordRun();
        run.cover(List.of(record), 0, 1);
        return run;
    }

    /** Covers records {@code [from, limit)} but not more than the caps allow; returns the end. */
    int cover(List<ConsumerRecord<byte[], byte[]>> splitRecords, int start, int limit) {
        int end = start;
        long bytes = 0;
        int maxEnd = Math.min(limit, start + MAX_RECORDS);
        while (end < maxEnd && bytes < MAX_BYTES) {
            ConsumerRecord<byte[], byte[]> record = splitRecords.get(end++);
            bytes += Math.max(0, record.serializedValueSize()) + Math.max(0, record.serializedKeySize());
        }
        this.records = splitRecords;
        this.from = start;
        this.to = end;
        return end;
    }

    int size() {
        return to - from;
    }

    /** The {@code i}-th record of the run, {@code 0 <= i < size()}. */
    ConsumerRecord<byte[], byte[]> get(int i) {
        return records.get(from + i);
    }

    @Override
    public String toString() {
        return size() == 0
                ? "[]"
                : "records " + get(0).topic() + "-" + get(0).partition() + "@" + get(0).offset() + ".."
                        + get(size() - 1).offset();
    }
}
