package io.streamsplit.connector.kafka.source.reader;

import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

/**
 * The Kafka record a source is handing downstream on this thread right now. Operators chained to a StreamSplit
 * source (a {@code map} or {@code filter} right after it, at its parallelism) run inside the source's {@code
 * collect}, on the same thread, so while one of them handles an element it can see the record the element came
 * from: a step that cannot process the element dead-letters that record — raw key, value and headers, replayable
 * to its topic — and names its topic, partition and offset. An operator behind a key-by or rebalance runs on
 * another thread and sees {@code null}.
 *
 * <pre>{@code
 * ConsumerRecord<byte[], byte[]> record = RecordInFlight.current(); // null when not in a source's chain
 * }</pre>
 *
 * <p>The source sets one holder per thread and one field per record, so the cost on the read path is a field
 * write per record.
 */
@Internal
public final class RecordInFlight {

    private static final ThreadLocal<RecordInFlight> CURRENT = new ThreadLocal<>();

    private final String sourceName;
    private @Nullable ConsumerRecord<byte[], byte[]> record;

    private RecordInFlight(String sourceName) {
        this.sourceName = sourceName;
    }

    /** The holder source {@code sourceName} fills on this thread; one per source reader. */
    public static RecordInFlight holder(String sourceName) {
        return new RecordInFlight(sourceName);
    }

    /** Makes this holder the one the current thread reads (once per batch of records: cheap). */
    public void enter() {
        if (CURRENT.get() != this) {
            CURRENT.set(this);
        }
    }

    /** The record whose elements go downstream until {@link #clear()}. */
    public void set(ConsumerRecord<byte[], byte[]> record) {
        this.record = record;
    }

    /** No record is in flight (between batches, and while timers or checkpoints run). */
    public void clear() {
        this.record = null;
    }

    /** The record a source on this thread is handing downstream, or {@code null}. */
    public static @Nullable ConsumerRecord<byte[], byte[]> current() {
        RecordInFlight holder = CURRENT.get();
        return holder == null ? null : holder.record;
    }

    /** The name of the source whose record is in flight on this thread, or {@code null}. */
    public static @Nullable String currentSource() {
        RecordInFlight holder = CURRENT.get();
        return holder == null || holder.record == null ? null : holder.sourceName;
    }
}
