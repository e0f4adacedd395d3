package io.streamsplit.boot.actuate;

import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.failure.JobFailures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.scheduler.ExecutionGraphInfo;
import org.jspecify.annotations.Nullable;

/**
 * Reads a job's progress for health and meters: checkpoints, failures and restarts in-process when the
 * job runs on the embedded cluster (no HTTP, no JSON: what health probes and the meters' refresh cost an
 * idle application; and the REST API's metric store lags by up to {@code metrics.fetcher.update-interval}),
 * Flink's REST API on a remote cluster.
 */
public final class JobProgress {

    private final FlinkRestClient rest;
    private final Function<String, @Nullable Long> freshRestarts;
    private final @Nullable Function<JobID, CompletableFuture<ExecutionGraphInfo>> inProcess;
    private final JobFailures failures;

    /**
     * @param freshRestarts the restart count read in-process, {@code null} where there is none
     * @param inProcess what the embedded cluster knows of a job; {@code null} on a remote cluster
     */
    public JobProgress(
            FlinkRestClient rest,
            Function<String, @Nullable Long> freshRestarts,
            @Nullable Function<JobID, CompletableFuture<ExecutionGraphInfo>> inProcess,
            JobFailures failures) {
        this.rest = rest;
        this.freshRestarts = freshRestarts;
        this.inProcess = inProcess;
        this.failures = failures;
    }

    JobCheckpoints read(String jobId) throws Exception {
        Long restarts = freshRestarts.apply(jobId);
        if (inProcess != null && restarts != null) {
            ExecutionGraphInfo info =
                    inProcess.apply(JobID.fromHexString(jobId)).get(5, TimeUnit.SECONDS);
            return JobCheckpoints.of(info, restarts, failures);
        }
        return JobCheckpoints.read(rest, jobId, restarts, failures);
    }

    /** Whether the restart count comes from the REST API's metric store rather than in-process. */
    boolean restartsFromMetricStore(String jobId) {
        return freshRestarts.apply(jobId) == null;
    }

    FlinkRestClient rest() {
        return rest;
    }
}
