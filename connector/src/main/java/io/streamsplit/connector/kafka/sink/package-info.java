/**
 * What the Spring Boot starter puts into a job next to Flink's official KafkaSink: the dead-letter record
 * serializer, a serialization schema that carries its element type, and the serializer wrapper that
 * measures each written record's freshness.
 */
@NullMarked
package io.streamsplit.connector.kafka.sink;

import org.jspecify.annotations.NullMarked;
