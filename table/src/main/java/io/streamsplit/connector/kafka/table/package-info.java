/**
 * Flink SQL on the StreamSplit source: {@code 'connector' = 'streamsplit-kafka'} takes the options of
 * Flink's {@code 'kafka'} table connector with their names and meaning (it is that connector's factory,
 * validation, formats, metadata columns and sinks), and reads with {@code StreamSplitKafkaSource}.
 */
@NullMarked
package io.streamsplit.connector.kafka.table;

import org.jspecify.annotations.NullMarked;
