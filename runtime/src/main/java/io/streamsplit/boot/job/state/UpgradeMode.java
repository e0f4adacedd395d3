package io.streamsplit.boot.job.state;

/**
 * How the application replaces a run of its job that another version of it submitted (remote mode);
 * the Flink Kubernetes Operator's upgrade modes.
 */
public enum UpgradeMode {
    /** Stop the running job with a savepoint and start the new version from it. */
    SAVEPOINT,
    /** Cancel the running job and start the new version from its latest retained checkpoint. */
    LAST_STATE,
    /** Cancel the running job and start the new version from the sources' starting offsets, without state. */
    STATELESS
}
