/**
 * Remote mode: the session cluster's address, the jars shipped with the job and the rules that pick them,
 * the cluster-side class check and the version check.
 */
@NullMarked
package io.streamsplit.boot.flink.remote;

import org.jspecify.annotations.NullMarked;
