/**
 * The names of the metrics a StreamSplit Kafka source registers and keeps up to date.
 */
@NullMarked
package io.streamsplit.connector.kafka.source.metrics;

import org.jspecify.annotations.NullMarked;
