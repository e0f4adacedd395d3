package io.streamsplit.boot.actuate;

import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import io.streamsplit.boot.job.JobFailures;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Reads a job's progress for health and meters: Flink's REST API for checkpoints and failures, and
 * the restart count in-process when the job runs on the embedded cluster (the REST API's metric store
 * lags by up to {@code metrics.fetcher.update-interval}).
 */
public final class JobProgress {

    private final FlinkRestClient rest;
    private final Function<String, @Nullable Long> freshRestarts;
    private final JobFailures failures;

    public JobProgress(FlinkRestClient rest, Function<String, @Nullable Long> freshRestarts, JobFailures failures) {
        this.rest = rest;
        this.freshRestarts = freshRestarts;
        this.failures = failures;
    }

    JobCheckpoints read(String jobId) throws Exception {
        return JobCheckpoints.read(rest, jobId, freshRestarts.apply(jobId), failures);
    }

    /** Whether the restart count comes from the REST API's metric store rather than in-process. */
    boolean restartsFromMetricStore(String jobId) {
        return freshRestarts.apply(jobId) == null;
    }

    FlinkRestClient rest() {
        return rest;
    }
}
