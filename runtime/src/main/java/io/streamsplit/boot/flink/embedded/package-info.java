/**
 * Embedded mode: the application's own MiniCluster, its in-process metric reporter, and the Flink log lines
 * an embedded cluster keeps out of the application's log.
 */
@NullMarked
package io.streamsplit.boot.flink.embedded;

import org.jspecify.annotations.NullMarked;
