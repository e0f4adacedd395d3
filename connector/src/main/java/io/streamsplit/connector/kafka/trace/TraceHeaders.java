package io.streamsplit.connector.kafka.trace;

import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * The W3C trace context of one Kafka record: its {@code traceparent}, {@code tracestate} and
 * {@code baggage} headers, as text. Keep it in an element that combines records (a window's result,
 * a join) by implementing {@link TraceCarrier}, so the sink writes it.
 *
 * <pre>{@code
 * TraceHeaders trace = TraceContext.current(); // in a map right after the source
 * }</pre>
 *
 * @param traceparent the {@code traceparent} header
 * @param tracestate the {@code tracestate} header, or {@code null}
 * @param baggage the {@code baggage} header, or {@code null}
 */
@PublicEvolving
public record TraceHeaders(
        String traceparent,
        @Nullable String tracestate,
        @Nullable String baggage) {

    /** The W3C {@code traceparent} header's name. */
    public static final String TRACEPARENT = "traceparent";
    /** The W3C {@code tracestate} header's name. */
    public static final String TRACESTATE = "tracestate";
    /** The W3C {@code baggage} header's name. */
    public static final String BAGGAGE = "baggage";

    /** The trace context of {@code headers}, or {@code null} when they have no {@code traceparent}. */
    public static @Nullable TraceHeaders of(Headers headers) {
        String traceparent = text(headers.lastHeader(TRACEPARENT));
        if (traceparent == null) {
            return null;
        }
        return new TraceHeaders(traceparent, text(headers.lastHeader(TRACESTATE)), text(headers.lastHeader(BAGGAGE)));
    }

    /**
     * Whether the {@code traceparent}'s sampled flag is set (its last field, bit 0), as the caller decided
     * upstream; {@code true} when the header is not in the W3C form, so that a tracer decides.
     */
    public boolean sampled() {
        return sampled(traceparent.length(), traceparent::charAt);
    }

    /** {@link #sampled()} of a {@code traceparent} header's bytes, without decoding them into text. */
    static boolean sampled(byte[] traceparent) {
        return sampled(traceparent.length, i -> (char) traceparent[i]);
    }

    private static boolean sampled(int length, IntFunction<Character> charAt) {
        if (length < 55 || charAt.apply(2) != '-' || charAt.apply(35) != '-' || charAt.apply(52) != '-') {
            return true;
        }
        int flags = Character.digit(charAt.apply(54), 16);
        return flags < 0 || (flags & 1) == 1;
    }

    /** Adds these headers to {@code headers} unless they already carry a {@code traceparent}. */
    public void addTo(Headers headers) {
        if (headers.lastHeader(TRACEPARENT) != null) {
            return;
        }
        headers.add(TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
        if (tracestate != null) {
            headers.add(TRACESTATE, tracestate.getBytes(StandardCharsets.UTF_8));
        }
        if (baggage != null) {
            headers.add(BAGGAGE, baggage.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static @Nullable String text(@Nullable Header header) {
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
