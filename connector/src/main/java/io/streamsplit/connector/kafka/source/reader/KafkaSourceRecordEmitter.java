package io.streamsplit.connector.kafka.source.reader;

import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.connector.kafka.source.KafkaRecordCollector;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitState;
import io.streamsplit.connector.kafka.trace.RecordTracer;
import io.streamsplit.connector.kafka.trace.TraceContext;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each record of a {@link KafkaRecordRun} to the user's {@link KafkaRecordEmitter}, applies
 * the bad-record policy when it throws, and then — always, whatever was emitted — advances the
 * split's offset past the record. Runs on the task's main thread.
 */
@Internal
final class KafkaSourceRecordEmitter<T, OUT> implements RecordEmitter<KafkaRecordRun, OUT, KafkaPartitionSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceRecordEmitter.class);

    private final String sourceName;
    private final KafkaRecordEmitter<T> userEmitter;
    private final ElementMapping<T, OUT> mapping;
    private final BadRecordPolicy policy;
    private final KafkaSourceReaderMetrics metrics;
    private final Counter numRecordsIn;
    private final Collector collector = new Collector();
    private final BadRecordLog badRecords = new BadRecordLog();
    private final @Nullable RecordTracer tracer;
    private final RecordInFlight inFlight;

    KafkaSourceRecordEmitter(
            String sourceName,
            KafkaRecordEmitter<T> userEmitter,
            ElementMapping<T, OUT> mapping,
            BadRecordPolicy policy,
            KafkaSourceReaderMetrics metrics,
            Counter numRecordsIn,
            @Nullable RecordTracer tracer) {
        this.tracer = tracer;
        this.sourceName = sourceName;
        this.userEmitter = userEmitter;
        this.mapping = mapping;
        this.policy = policy;
        this.metrics = metrics;
        this.numRecordsIn = numRecordsIn;
        this.inFlight = RecordInFlight.holder(sourceName);
    }

    @Override
    public void emitRecord(KafkaRecordRun run, SourceOutput<OUT> output, KafkaPartitionSplitState splitState)
            throws Exception {
        int size = run.size();
        // Flink's reader loop counted the run as one record
        numRecordsIn.inc(size - 1);
        collector.output = output;
        long nextOffset = splitState.currentOffset();
        inFlight.enter();
        try {
            for (int i = 0; i < size; i++) {
                ConsumerRecord<byte[], byte[]> record = run.get(i);
                inFlight.set(record);
                emit(record, output);
                nextOffset = record.offset() + 1;
            }
        } finally {
            inFlight.clear();
            // once per run, not per record: the offset is only read by checkpoints, which run between
            // calls, and by metrics; after a failure it stays before the record that failed
            splitState.setCurrentOffset(nextOffset);
        }
    }

    private void emit(ConsumerRecord<byte[], byte[]> record, SourceOutput<OUT> output) throws Exception {
        collector.recordTimestamp = record.timestamp();
        collector.downstreamFailure = null;
        boolean traced = TraceContext.enter(record.headers(), tracer, sourceName);
        try {
            userEmitter.emit(record, collector);
        } catch (Exception | LinkageError e) {
            rethrowDownstreamFailure();
            rethrowUnavailable(e);
            handleBadRecord(record, output, e);
        } finally {
            if (traced) {
                TraceContext.exit();
            }
        }
        // also when the user's emitter caught and swallowed it
        rethrowDownstreamFailure();
    }

    /**
     * An exception from an operator after the source (chained, so it surfaces inside
     * {@code collect}) is that operator's failure, not a bad record: it fails the task, and the
     * record is read again after recovery. Applying the bad-record policy to it would drop the
     * record from the output.
     */
    private void rethrowDownstreamFailure() throws Exception {
        Throwable failure = collector.downstreamFailure;
        if (failure == null) {
            return;
        }
        collector.downstreamFailure = null;
        if (failure instanceof Error error) {
            throw error;
        }
        throw (Exception) failure;
    }

    /** Not the record's fault ({@link KafkaRecordDeserializer.UnavailableException}): fail the task, read it again. */
    private static void rethrowUnavailable(Throwable error) throws Exception {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof KafkaRecordDeserializer.UnavailableException) {
                throw error instanceof Exception exception ? exception : new IOException(error);
            }
        }
    }

    private void handleBadRecord(ConsumerRecord<byte[], byte[]> record, SourceOutput<OUT> output, Throwable error)
            throws BadRecordException {
        String where = "source " + sourceName + ", topic " + record.topic() + ", partition " + record.partition()
                + ", offset " + record.offset();
        switch (policy) {
            case SKIP -> {
                metrics.recordSkipped();
                log("Skipped", where, error);
            }
            case DEAD_LETTER -> {
                OUT deadLetter = mapping.deadLetter(DeadLetterRecord.of(sourceName, record, error));
                if (deadLetter == null) {
                    throw new BadRecordException(
                            "Bad record at " + where + " and the dead-letter policy has no"
                                    + " output: add the source with KafkaSourceStream.of(...) to route dead letters",
                            error);
                }
                metrics.recordDeadLettered();
                log("Dead-lettered", where, error);
                output.collect(deadLetter, record.timestamp());
            }
            default ->
                throw new BadRecordException(
                        "Could not deserialize or emit the record at " + where
                                + ": " + error.getMessage()
                                + ". Fix the data or the deserializer, or set the bad-record policy"
                                + " to skip or dead-letter to let the job go on.",
                        error);
        }
    }

    private void log(String done, String where, Throwable error) {
        String warning = badRecords.warning(done, where, error);
        if (warning != null) {
            LOG.warn(warning);
        } else {
            LOG.debug(
                    "{} a bad record ({}): {}: {}",
                    done,
                    where,
                    error.getClass().getName(),
                    error.getMessage());
        }
    }

    /** The collector handed to the user's emitter; reused for every record. */
    private final class Collector implements KafkaRecordCollector<T> {
        @SuppressWarnings("NullAway.Init") // set before each record is handed to the user's emitter
        SourceOutput<OUT> output;

        long recordTimestamp;

        @Nullable
        Throwable downstreamFailure;

        @Override
        public void collect(T element) {
            collect(element, recordTimestamp);
        }

        @Override
        public void collect(T element, long timestampMillis) {
            OUT mapped = mapping.element(element);
            try {
                output.collect(mapped, timestampMillis);
            } catch (RuntimeException | Error e) {
                if (e instanceof RuntimeException && downstreamFailure == null) {
                    ConsumerRecord<byte[], byte[]> record = RecordInFlight.current();
                    if (record != null) {
                        e.addSuppressed(new OnRecord(sourceName, record));
                    }
                }
                downstreamFailure = e;
                throw e;
            }
        }
    }

    /**
     * Added to an exception an operator chained to the source threw (as a suppressed exception: its type and
     * message stay as thrown), so the job's failure names the record it failed on: topic, partition, offset.
     */
    static final class OnRecord extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OnRecord(String sourceName, ConsumerRecord<byte[], byte[]> record) {
            super(
                    "while processing the record at topic " + record.topic() + ", partition " + record.partition()
                            + ", offset " + record.offset() + " (source '" + sourceName + "')",
                    null,
                    false,
                    false);
        }
    }

    /** A record the source could not handle under the {@code fail} policy. */
    static final class BadRecordException extends Exception {
        BadRecordException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
