/**
 * The application as its job's controller on a Flink cluster: a stable identity per job, adopt /
 * upgrade / resume at startup, one job however many instances of the application run.
 */
@NullMarked
package io.streamsplit.boot.job.cluster;

import org.jspecify.annotations.NullMarked;
