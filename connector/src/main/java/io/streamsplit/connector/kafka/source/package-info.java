/**
 * The StreamSplit Kafka source, its user API: the source and its builder, starting and stopping offsets,
 * the deserializer and record-emitter extension points, the bad-record policy and dead letters.
 */
@NullMarked
package io.streamsplit.connector.kafka.source;

import org.jspecify.annotations.NullMarked;
