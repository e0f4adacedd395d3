/**
 * Internal: the source reader (TaskManager side) on flink-connector-base: the split reader over one
 * consumer, the record emitter that applies the bad-record policy, offset commits and metrics.
 */
@NullMarked
package io.streamsplit.connector.kafka.source.reader;

import org.jspecify.annotations.NullMarked;
