/**
 * Kafka sources and sinks from {@code streamsplit.kafka.sources/sinks}: their properties, the factories that map
 * them onto the connector's and Flink's builders, user-bean lookup and the customizer hooks.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.kafka;

import org.jspecify.annotations.NullMarked;
