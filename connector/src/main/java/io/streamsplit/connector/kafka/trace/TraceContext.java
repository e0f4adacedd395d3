package io.streamsplit.connector.kafka.trace;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.common.header.Header;
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

    private static final ThreadLocal<@Nullable Current> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<RecordTracer.@Nullable RecordSpan> SPAN = new ThreadLocal<>();

    private TraceContext() {}

    /** The trace context of the record being emitted on this thread, or {@code null}. */
    public static @Nullable TraceHeaders current() {
        Current current = CURRENT.get();
        return current == null ? null : current.headers();
    }

    /**
     * Called by the sinks for each record they write: adds the current trace context's headers to {@code
     * headers} unless they carry a {@code traceparent} already — with a {@code tracer} and a sampled
     * context, a {@code <sink> send} span's, else the input record's own header objects, so nothing is
     * decoded or encoded on the way.
     */
    public static void addTo(Headers headers, @Nullable RecordTracer tracer, String sink) {
        Current current = CURRENT.get();
        if (current == null) {
            return;
        }
        if (tracer != null && current.sampled()) {
            addSpan(current.headers(), headers, tracer, sink);
        } else {
            current.addTo(headers);
        }
    }

    /**
     * Like {@link #addTo(Headers, RecordTracer, String)} for an element that carries its own context
     * ({@link TraceCarrier}); nothing when {@code trace} is {@code null}.
     */
    public static void addTo(
            Headers headers, @Nullable TraceHeaders trace, @Nullable RecordTracer tracer, String sink) {
        if (trace == null) {
            return;
        }
        if (tracer != null && trace.sampled()) {
            addSpan(trace, headers, tracer, sink);
        } else {
            trace.addTo(headers);
        }
    }

    private static void addSpan(TraceHeaders parent, Headers headers, RecordTracer tracer, String sink) {
        RecordTracer.RecordSpan span = tracer.send(sink, parent);
        if (span == null) {
            parent.addTo(headers);
            return;
        }
        span.context().addTo(headers);
        span.end();
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
        Header traceparent = headers.lastHeader(TraceHeaders.TRACEPARENT);
        if (traceparent == null || traceparent.value() == null) {
            return false;
        }
        Current current = new Current(headers, traceparent);
        // a record not sampled upstream gets no span: the parent-based sampler's decision, taken here
        // from the header's flags (asking the tracer cost as much as a recorded span: PipelineBenchmark)
        if (tracer != null && TraceHeaders.sampled(traceparent.value())) {
            RecordTracer.RecordSpan span = tracer.receive(source, current.headers());
            if (span != null) {
                SPAN.set(span);
                current = new Current(span.context());
            }
        }
        CURRENT.set(current);
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

    /**
     * What is current on a thread: the input record's headers as read (decoded into {@link TraceHeaders}
     * only when someone asks), or a span's context. Decoding two or three headers into text and encoding
     * them again on the way out cost ~10 % of a source → map → sink app's CPU (PipelineBenchmark, JFR).
     */
    private static final class Current {
        private final @Nullable Headers input;
        private final @Nullable Header traceparent;
        private @Nullable TraceHeaders decoded;

        /** The input's headers and their {@code traceparent}, as {@link #enter} found it. */
        Current(Headers input, Header traceparent) {
            this.input = input;
            this.traceparent = traceparent;
        }

        Current(TraceHeaders decoded) {
            this.input = null;
            this.traceparent = null;
            this.decoded = decoded;
        }

        boolean sampled() {
            Header found = traceparent;
            return found == null ? headers().sampled() : TraceHeaders.sampled(found.value());
        }

        TraceHeaders headers() {
            TraceHeaders headers = decoded;
            if (headers == null) {
                headers = Objects.requireNonNull(TraceHeaders.of(Objects.requireNonNull(input)));
                decoded = headers;
            }
            return headers;
        }

        void addTo(Headers target) {
            Headers from = input;
            Header found = traceparent;
            if (from == null || found == null) {
                headers().addTo(target);
                return;
            }
            if (target.lastHeader(TraceHeaders.TRACEPARENT) != null) {
                return;
            }
            target.add(found);
            copy(from, TraceHeaders.TRACESTATE, target);
            copy(from, TraceHeaders.BAGGAGE, target);
        }

        private static void copy(Headers from, String name, Headers to) {
            Header header = from.lastHeader(name);
            if (header != null && header.value() != null) {
                to.add(header);
            }
        }
    }
}
