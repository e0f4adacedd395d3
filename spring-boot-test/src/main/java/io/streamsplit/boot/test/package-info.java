/**
 * Testing StreamSplit applications: {@link io.streamsplit.boot.test.StreamSplitTest} starts the
 * application against a real in-JVM Kafka broker and the embedded Flink MiniCluster, and
 * {@link io.streamsplit.boot.test.PipelineTester} sends, reads and waits in a test's terms.
 */
@NullMarked
package io.streamsplit.boot.test;

import org.jspecify.annotations.NullMarked;
