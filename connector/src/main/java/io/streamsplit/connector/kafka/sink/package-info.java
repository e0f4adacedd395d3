/**
 * What the Spring Boot starter puts into a job next to Flink's official KafkaSink: the dead-letter record
 * serializer and a serialization schema that carries its element type.
 */
@NullMarked
package io.streamsplit.connector.kafka.sink;

import org.jspecify.annotations.NullMarked;
