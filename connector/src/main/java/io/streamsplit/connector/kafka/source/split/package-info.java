/**
 * Internal: a split is one Kafka partition with its starting and (bounded) stopping offset, and its
 * versioned serializer.
 */
package io.streamsplit.connector.kafka.source.split;
