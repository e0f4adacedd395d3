/**
 * The application as its job's controller on a Flink cluster: what to do decided by one pure function
 * ({@link io.streamsplit.boot.job.cluster.JobDecision}), adopt / upgrade / resume at startup, the job kept
 * (put back, followed) while the application runs, one job however many instances of the application run.
 */
@NullMarked
package io.streamsplit.boot.job.cluster;

import org.jspecify.annotations.NullMarked;
