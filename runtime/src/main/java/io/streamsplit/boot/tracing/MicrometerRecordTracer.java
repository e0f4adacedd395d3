package io.streamsplit.boot.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import io.streamsplit.connector.kafka.trace.RecordTracer;
import io.streamsplit.connector.kafka.trace.TraceHeaders;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Spans per record with Micrometer Tracing (any bridge: OpenTelemetry, Brave): {@code <source>
 * receive} (kind CONSUMER) while a source emits a record with a {@code traceparent}, a child of the
 * producer's span, and {@code <sink> send} (kind PRODUCER) as a sink writes a result, a child of the
 * receive span when the sink is chained to the source. The sink writes the send span's context, so
 * a consumer of the output continues the same trace. Whether a span is recorded is the tracer's
 * sampler's decision ({@code management.tracing.sampling.probability} for new traces; a sampled
 * parent makes its children sampled).
 *
 * <pre>{@code
 * RecordTracer.Registry.register(cluster.applicationId(), new MicrometerRecordTracer(tracer, propagator));
 * }</pre>
 */
public final class MicrometerRecordTracer implements RecordTracer {

    private final Tracer tracer;
    private final Propagator propagator;

    public MicrometerRecordTracer(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public @Nullable RecordSpan receive(String source, TraceHeaders parent) {
        return start(source + " receive", Span.Kind.CONSUMER, "source", source, parent);
    }

    @Override
    public @Nullable RecordSpan send(String sink, TraceHeaders parent) {
        return start(sink + " send", Span.Kind.PRODUCER, "sink", sink, parent);
    }

    private @Nullable RecordSpan start(String name, Span.Kind kind, String role, String which, TraceHeaders parent) {
        Map<String, String> carrier = new HashMap<>(4);
        carrier.put(TraceHeaders.TRACEPARENT, parent.traceparent());
        if (parent.tracestate() != null) {
            carrier.put(TraceHeaders.TRACESTATE, parent.tracestate());
        }
        if (parent.baggage() != null) {
            carrier.put(TraceHeaders.BAGGAGE, parent.baggage());
        }
        Span span = propagator
                .extract(carrier, Map::get)
                .name(name)
                .kind(kind)
                .tag("messaging.system", "kafka")
                .tag("streamsplit." + role, which)
                .start();
        if (span.isNoop()) {
            return null;
        }
        Map<String, String> written = new HashMap<>(4);
        propagator.inject(span.context(), written, (into, key, value) -> {
            if (into != null) {
                into.put(key, value);
            }
        });
        String traceparent = written.get(TraceHeaders.TRACEPARENT);
        if (traceparent == null) {
            span.end(); // a propagation format without traceparent (e.g. B3 only): keep the input's headers
            return null;
        }
        TraceHeaders context = new TraceHeaders(
                traceparent,
                written.getOrDefault(TraceHeaders.TRACESTATE, parent.tracestate()),
                written.getOrDefault(TraceHeaders.BAGGAGE, parent.baggage()));
        return new RecordSpan() {
            @Override
            public TraceHeaders context() {
                return context;
            }

            @Override
            public void end() {
                span.end();
            }
        };
    }
}
