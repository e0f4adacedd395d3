package io.streamsplit.connector.kafka.trace;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * The trace context of the Kafka record a StreamSplit source is emitting on this thread, while it
 * emits it: set around each record that has a {@code traceparent} header (a record without one
 * costs a header lookup), cleared after. Operators chained to the source (record-to-record:
 * {@code map}, {@code filter}, {@code flatMap}, up to a sink in the same chain) run inside that
 * emit, so a YAML sink writes the input record's context with each of their results, with no code.
 * Past a {@code keyBy} or a window the operator runs on another thread or later, so there it is
 * {@code null}: capture it before ({@link #current()}) into an element that is a {@link TraceCarrier}.
 *
 * <pre>{@code
 * orders.map(order -> new Priced(order, TraceContext.current())) // Priced implements TraceCarrier
 * }</pre>
 */
@PublicEvolving
public final class TraceContext {

    private static final ThreadLocal<@Nullable TraceHeaders> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<RecordTracer.@Nullable RecordSpan> SPAN = new ThreadLocal<>();

    private TraceContext() {}

    /** The trace context of the record being emitted on this thread, or {@code null}. */
    public static @Nullable TraceHeaders current() {
        return CURRENT.get();
    }

    /**
     * Called by the source around each record: makes its trace context current and returns whether
     * it had one (then {@link #exit()} must follow).
     */
    public static boolean enter(Headers headers) {
        return enter(headers, null, "");
    }

    /**
     * Like {@link #enter(Headers)}; with a {@code tracer}, also starts a span for the record as a
     * child of its context, and the span's context becomes current (so what the sink writes is the
     * span's child). {@link #exit()} ends it.
     */
    public static boolean enter(Headers headers, @Nullable RecordTracer tracer, String source) {
        TraceHeaders trace = TraceHeaders.of(headers);
        if (trace == null) {
            return false;
        }
        if (tracer != null) {
            RecordTracer.RecordSpan span = tracer.receive(source, trace);
            if (span != null) {
                SPAN.set(span);
                trace = span.context();
            }
        }
        CURRENT.set(trace);
        return true;
    }

    /** Clears the trace context {@link #enter} set, ending its span if it started one. */
    public static void exit() {
        CURRENT.set(null);
        RecordTracer.RecordSpan span = SPAN.get();
        if (span != null) {
            SPAN.set(null);
            span.end();
        }
    }
}
