package io.streamsplit.connector.kafka.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TraceHeadersTest {

    private static TraceHeaders withParent(String traceparent) {
        return new TraceHeaders(traceparent, null, null);
    }

    @Test
    void theSampledFlagIsBitZeroOfTheTraceFlags() {
        assertThat(withParent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                        .sampled())
                .isTrue();
        assertThat(withParent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")
                        .sampled())
                .isFalse();
        assertThat(withParent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03")
                        .sampled())
                .as("other flags set as well")
                .isTrue();
        assertThat(withParent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-02")
                        .sampled())
                .isFalse();
    }

    @Test
    void aTraceparentNotInTheW3cFormLeavesTheDecisionToTheTracer() {
        assertThat(withParent("not-a-traceparent").sampled()).isTrue();
        assertThat(withParent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331")
                        .sampled())
                .isTrue();
        assertThat(withParent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0z")
                        .sampled())
                .isTrue();
    }
}
