/**
 * Internal: a split is one Kafka partition with its starting and (bounded) stopping offset, and its
 * versioned serializer.
 */
@NullMarked
package io.streamsplit.connector.kafka.source.split;

import org.jspecify.annotations.NullMarked;
