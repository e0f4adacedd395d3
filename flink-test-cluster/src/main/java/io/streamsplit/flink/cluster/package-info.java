/** A standalone Flink cluster from Flink's own entry points, each JobManager and TaskManager in a JVM of its own, for tests. */
@NullMarked
package io.streamsplit.flink.cluster;

import org.jspecify.annotations.NullMarked;
