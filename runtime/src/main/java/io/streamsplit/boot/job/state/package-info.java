/**
 * The job's identity across its runs (a family of job ids, one generation per run) and the state its runs
 * left behind (retained checkpoints and savepoints in storage): where the next run, embedded or on a
 * cluster, starts from.
 */
@NullMarked
package io.streamsplit.boot.job.state;

import org.jspecify.annotations.NullMarked;
