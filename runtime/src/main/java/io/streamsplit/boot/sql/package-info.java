/**
 * {@code streamsplit.sql}: Flink SQL statements run as part of the application's job, over the YAML sources
 * and sinks as tables. Loaded only when Flink's Table API is on the classpath.
 */
@NullMarked
package io.streamsplit.boot.sql;

import org.jspecify.annotations.NullMarked;
