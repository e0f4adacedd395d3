package io.streamsplit.boot.job.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.JobID;
import org.jspecify.annotations.Nullable;

/**
 * One look at the cluster, as {@link JobDecision} needs it: whether it answered, the runs of the job it
 * lists (the newest active one with the labels the application stored with it), and jobs of the same
 * name that are not runs of it. Read by {@link ClusterJobs#view}; built by hand in tests.
 *
 * @param notAnswering why the cluster did not answer (no connection, a timeout, a 5xx), {@code null} when it did
 * @param strangers active jobs of the job's name that are not runs of it (another program's, an older StreamSplit's)
 * @param newest the newest active run and its labels, {@code null} when no run is active
 * @param older the other active runs (two runs of one job write the same transactions: they are cancelled)
 * @param runs every run of the job the cluster lists, ended ones included (it forgets them after
 *     {@code jobstore.expiration-time}, and all of them when the JobManager restarts without high availability)
 * @param lastGeneration the highest generation the cluster lists, 0 when none
 * @param now when the cluster was read
 */
record ClusterView(
        @Nullable String notAnswering,
        List<ClusterJob> strangers,
        @Nullable ActiveRun newest,
        List<ClusterJob> older,
        List<ClusterJob> runs,
        long lastGeneration,
        Instant now) {

    /** A cluster that did not answer. */
    static ClusterView notAnswering(String why, Instant now) {
        return new ClusterView(why, List.of(), null, List.of(), List.of(), 0, now);
    }

    /** Run {@code id} as the cluster lists it; empty when it does not (never submitted, or forgotten). */
    Optional<ClusterJob> run(JobID id) {
        return runs.stream().filter(run -> run.id().equals(id)).findFirst();
    }

    /**
     * The newest active run of the job.
     *
     * @param job the run as listed
     * @param generation its generation
     * @param labels what the application stored with it; none while the cluster does not show them yet (a run
     *     that is initializing, and for a few seconds after: the REST API's cache)
     */
    record ActiveRun(ClusterJob job, long generation, JobLabels labels) {

        JobID id() {
            return job.id();
        }

        /** Whether the cluster shows the run's labels yet. */
        boolean labelled() {
            return labels.fingerprint() != null;
        }
    }
}
