/**
 * W3C trace context ({@code traceparent}, {@code tracestate}, {@code baggage}) from the Kafka records
 * a source reads to the records a sink writes.
 */
@NullMarked
package io.streamsplit.connector.kafka.trace;

import org.jspecify.annotations.NullMarked;
