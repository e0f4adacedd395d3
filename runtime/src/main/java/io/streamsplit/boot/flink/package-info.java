/**
 * The Flink clusters a job runs on: where it runs ({@link io.streamsplit.boot.flink.FlinkMode}), the embedded
 * MiniCluster ({@code embedded}), a remote session cluster and the jars shipped to it ({@code remote}), and
 * Flink's REST API ({@code rest}).
 */
@NullMarked
package io.streamsplit.boot.flink;

import org.jspecify.annotations.NullMarked;
