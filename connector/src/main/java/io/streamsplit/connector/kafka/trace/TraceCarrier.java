package io.streamsplit.connector.kafka.trace;

import org.apache.flink.annotation.PublicEvolving;
import org.jspecify.annotations.Nullable;

/**
 * An element that carries the trace context of the record(s) it came from, for the sink to write:
 * the explicit way where records are combined (windows, joins, anything after a {@code keyBy}),
 * where the context of the record being read is not the one of the element being written.
 *
 * <pre>{@code
 * record Total(String customer, long cents, TraceHeaders trace) implements TraceCarrier {
 *     public TraceHeaders traceHeaders() { return trace; }
 * }
 * }</pre>
 */
@PublicEvolving
@FunctionalInterface
public interface TraceCarrier {

    /** The trace context to write with this element, or {@code null} for none. */
    @Nullable
    TraceHeaders traceHeaders();
}
