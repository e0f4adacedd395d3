package io.streamsplit.connector.kafka.sink;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink.PrecommittingStatefulSinkWriter;
import org.jspecify.annotations.Nullable;

/**
 * The official exactly-once writer, whose checkpoint flush also completes on kafka-clients 4.3 and
 * later (Spring Boot 4.2 brings 4.4).
 *
 * <p>At each checkpoint the official writer flushes its transactional producer: Kafka's own
 * {@code KafkaProducer.flush()}, which returns once every record sent is acknowledged or failed, then a
 * step of the connector's that waits for the partitions the transaction added — through
 * {@code TransactionalRequestResult.await()}, a producer internal that kafka-clients 4.3 removed
 * ({@code NoSuchMethodError} at every checkpoint: no checkpoint completes, nothing is committed). That
 * step has nothing left to wait for once Kafka's flush has returned: a transactional producer adds a
 * partition to the transaction before it sends the partition's first record (or, on Kafka's newer
 * transaction protocol, with that record), so the records' acknowledgements imply it, and the commit
 * that follows is queued behind any request still on its way. This writer lets exactly that error pass
 * and then does what the official flush does after it: fails the checkpoint if a record's send failed
 * (read from the writer's {@code asyncProducerException}, as its own check reads it), so a transaction
 * with a lost record is never committed. Any other error, and this one on a kafka-clients that still
 * has the method, goes through unchanged.
 */
final class FlushCompletingWriter<IN>
        implements PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> {

    /** The producer internal the official flush calls, as the JVM names it in its error. */
    static final String REMOVED_AWAIT = "TransactionalRequestResult.await()";

    private final PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> official;
    private final @Nullable Field sendFailure;

    FlushCompletingWriter(PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> official) {
        this.official = official;
        this.sendFailure = field(official.getClass(), "asyncProducerException");
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        try {
            official.flush(endOfInput);
        } catch (NoSuchMethodError e) {
            if (e.getMessage() == null || !e.getMessage().contains(REMOVED_AWAIT)) {
                throw e;
            }
            throwIfASendFailed(e);
        }
    }

    /** The official writer's check after its flush: the first failed send, once, as an IOException. */
    private void throwIfASendFailed(NoSuchMethodError removedAwait) throws IOException {
        if (sendFailure == null) {
            // a connector whose writer keeps send failures elsewhere: whether a record was lost cannot be told
            throw new IllegalStateException(
                    "The Kafka sink's checkpoint flush calls " + REMOVED_AWAIT + ", which this kafka-clients"
                            + " no longer has, and its writer cannot be checked for failed sends; use a"
                            + " kafka-clients the exactly-once sink is tested with (see ExactlyOnceKafkaClients)",
                    removedAwait);
        }
        Exception failed;
        try {
            failed = (Exception) sendFailure.get(official);
            if (failed != null) {
                sendFailure.set(official, null);
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read the Kafka sink writer's send failure", e);
        }
        if (failed != null) {
            throw new IOException(
                    "A record of this checkpoint's Kafka transaction could not be sent; the checkpoint fails and"
                            + " the job goes back to the previous one",
                    failed);
        }
    }

    private static @Nullable Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field field = c.getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (NoSuchFieldException notHere) {
                // look in the superclass
            } catch (RuntimeException inaccessible) {
                return null;
            }
        }
        return null;
    }

    @Override
    public void write(IN element, Context context) throws IOException, InterruptedException {
        official.write(element, context);
    }

    @Override
    public void writeWatermark(Watermark watermark) throws IOException, InterruptedException {
        official.writeWatermark(watermark);
    }

    @Override
    public Collection<KafkaCommittable> prepareCommit() throws IOException, InterruptedException {
        return official.prepareCommit();
    }

    @Override
    public List<KafkaWriterState> snapshotState(long checkpointId) throws IOException {
        return official.snapshotState(checkpointId);
    }

    @Override
    public void close() throws Exception {
        official.close();
    }
}
