package io.streamsplit.boot.flink;

/** Where the job runs. */
public enum FlinkMode {
    /** An in-process Flink MiniCluster, started and stopped with the application. */
    EMBEDDED,
    /** A Flink session cluster reached over REST; the user's jars are shipped with the job. */
    REMOTE,
    /**
     * The application was started by Flink (application mode: the JobManager runs its {@code main}, as
     * the Flink Kubernetes Operator and {@code bin/standalone-job.sh} do) and runs its job on the
     * environment Flink provides. Chosen by itself when Flink starts the application.
     */
    APPLICATION
}
