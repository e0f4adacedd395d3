package io.streamsplit.connector.kafka.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TraceContextTest {

    private static final String PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    @AfterEach
    void leaveNothingCurrent() {
        TraceContext.exit();
    }

    private static Headers input(String... nameValues) {
        Headers headers = new RecordHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            headers.add(nameValues[i], nameValues[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    private static @Nullable String text(Headers headers, String name) {
        var header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Test
    void theInputsTraceHeadersAreWrittenAsTheyCameWithoutTheOthers() {
        Headers in = input("traceparent", PARENT, "tracestate", "v=1", "baggage", "user=ann", "other", "x");
        assertThat(TraceContext.enter(in)).isTrue();

        Headers out = new RecordHeaders();
        TraceContext.addTo(out, null, "out");

        assertThat(out.toArray()).hasSize(3);
        assertThat(out.lastHeader("traceparent")).isSameAs(in.lastHeader("traceparent"));
        assertThat(text(out, "tracestate")).isEqualTo("v=1");
        assertThat(text(out, "baggage")).isEqualTo("user=ann");
        assertThat(TraceContext.current()).isEqualTo(new TraceHeaders(PARENT, "v=1", "user=ann"));
    }

    @Test
    void aRecordThatHasItsOwnTraceparentKeepsIt() {
        TraceContext.enter(input("traceparent", PARENT));
        Headers out = input("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

        TraceContext.addTo(out, null, "out");

        assertThat(out.toArray()).hasSize(1);
        assertThat(text(out, "traceparent")).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    @Test
    void withoutATraceparentNothingIsCurrentAndNothingIsWritten() {
        Headers in = new RecordHeaders();
        in.add("traceparent", null);
        in.add("tracestate", "v=1".getBytes(StandardCharsets.UTF_8));
        assertThat(TraceContext.enter(in)).isFalse();
        assertThat(TraceContext.enter(input("tracestate", "v=1"))).isFalse();

        Headers out = new RecordHeaders();
        TraceContext.addTo(out, null, "out");
        assertThat(out.toArray()).isEmpty();
        assertThat(TraceContext.current()).isNull();
    }

    /** Records which spans it was asked for; each span's context is a child id of the parent's trace. */
    private static final class RecordingTracer implements RecordTracer {
        final List<String> asked = new ArrayList<>();

        @Override
        public RecordSpan receive(String source, TraceHeaders parent) {
            return span(source + " receive", parent, "00000000000000a1");
        }

        @Override
        public RecordSpan send(String sink, TraceHeaders parent) {
            return span(sink + " send", parent, "00000000000000b2");
        }

        private RecordSpan span(String name, TraceHeaders parent, String spanId) {
            asked.add(name);
            TraceHeaders context =
                    new TraceHeaders(parent.traceparent().substring(0, 36) + spanId + "-01", parent.tracestate(), null);
            return new RecordSpan() {
                @Override
                public TraceHeaders context() {
                    return context;
                }

                @Override
                public void end() {
                    asked.add("end " + name);
                }
            };
        }
    }

    @Test
    void aSampledRecordGetsAReceiveAndASendSpanAndTheOutputCarriesTheSendSpan() {
        RecordingTracer tracer = new RecordingTracer();
        assertThat(TraceContext.enter(input("traceparent", PARENT), tracer, "orders"))
                .isTrue();
        Headers out = new RecordHeaders();
        TraceContext.addTo(out, tracer, "totals");
        TraceContext.exit();

        assertThat(tracer.asked)
                .containsExactly("orders receive", "totals send", "end totals send", "end orders receive");
        assertThat(text(out, "traceparent")).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-00000000000000b2-01");
    }

    @Test
    void aRecordNotSampledUpstreamGetsNoSpanAndItsContextTravelsUnchanged() {
        RecordingTracer tracer = new RecordingTracer();
        String unsampled = PARENT.substring(0, 53) + "00";
        assertThat(TraceContext.enter(input("traceparent", unsampled), tracer, "orders"))
                .isTrue();
        Headers out = new RecordHeaders();
        TraceContext.addTo(out, tracer, "totals");
        Headers fromCarrier = new RecordHeaders();
        TraceContext.addTo(fromCarrier, new TraceHeaders(unsampled, null, null), tracer, "totals");
        TraceContext.exit();

        assertThat(tracer.asked).isEmpty();
        assertThat(text(out, "traceparent")).isEqualTo(unsampled);
        assertThat(text(fromCarrier, "traceparent")).isEqualTo(unsampled);
    }

    @Test
    void exitClearsTheContext() {
        TraceContext.enter(input("traceparent", PARENT));
        TraceContext.exit();

        Headers out = new RecordHeaders();
        TraceContext.addTo(out, null, "out");
        assertThat(out.toArray()).isEmpty();
    }
}
