/**
 * What the Kafka sources in a checkpoint or savepoint would continue from, read without restoring
 * it: StreamSplit's state and that of Flink's official {@code KafkaSource}.
 */
@NullMarked
package io.streamsplit.connector.kafka.source.savepoint;

import org.jspecify.annotations.NullMarked;
