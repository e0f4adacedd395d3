package io.streamsplit.boot.job.state;

/** What the application's shutdown does to its job. */
public enum ShutdownJob {
    /** Leave the job running on the cluster (remote mode only); the next start of the application adopts it. */
    KEEP,
    /** Stop the job with a savepoint; the next start resumes from it. */
    SAVEPOINT,
    /** Cancel the job; its latest retained checkpoint is where the next start resumes. */
    CANCEL
}
