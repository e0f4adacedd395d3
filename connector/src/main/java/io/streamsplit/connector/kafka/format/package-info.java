/**
 * Ready-made value formats for sources and sinks, each both a Flink {@code DeserializationSchema}
 * and a {@code SerializationSchema}: JSON through Jackson, Avro (specific and generic records),
 * text in a charset, and raw bytes. Their Flink type information comes from the element type, so
 * records and POJOs travel between operators without Kryo.
 */
@NullMarked
package io.streamsplit.connector.kafka.format;

import org.jspecify.annotations.NullMarked;
