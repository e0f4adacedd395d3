package io.streamsplit.boot.job.failure;

import io.streamsplit.boot.flink.rest.FlinkRestClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.scheduler.ExecutionGraphInfo;
import org.apache.flink.runtime.scheduler.exceptionhistory.RootExceptionHistoryEntry;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * A job's failures as Flink keeps them (its exception history), newest first: over Flink's REST API from a
 * cluster, in-process from the embedded MiniCluster (no HTTP round trip, no JSON, nothing for an idle
 * application's JIT to warm up every few seconds).
 */
@FunctionalInterface
public interface JobFailureHistory {

    /** One failure: when, Flink's stack trace of it, and the task it failed in ({@code null}: the whole job). */
    record Failure(
            long timestamp, String stacktrace, @Nullable String taskName) {}

    /** The failures of job {@code jobId}, newest first. */
    List<Failure> read(String jobId) throws Exception;

    /** The history from Flink's REST API ({@code /jobs/<id>/exceptions}). */
    static JobFailureHistory rest(FlinkRestClient rest) {
        return jobId -> {
            List<Failure> failures = new ArrayList<>();
            for (JsonNode entry :
                    rest.exceptions(jobId).path("exceptionHistory").path("entries")) {
                failures.add(new Failure(
                        entry.path("timestamp").asLong(),
                        entry.path("stacktrace").asText(),
                        entry.path("taskName").isTextual()
                                ? entry.path("taskName").asText()
                                : null));
            }
            return failures;
        };
    }

    /** The history from a job's {@link ExecutionGraphInfo}, as an in-process cluster gives it. */
    static JobFailureHistory inProcess(Function<JobID, CompletableFuture<ExecutionGraphInfo>> graphs) {
        return jobId -> of(graphs.apply(JobID.fromHexString(jobId)).get(5, TimeUnit.SECONDS));
    }

    /** The failures an {@link ExecutionGraphInfo} holds, newest first. */
    static List<Failure> of(ExecutionGraphInfo info) {
        List<Failure> failures = new ArrayList<>();
        for (RootExceptionHistoryEntry entry : info.getExceptionHistory()) {
            failures.add(new Failure(entry.getTimestamp(), entry.getExceptionAsString(), entry.getFailingTaskName()));
        }
        failures.sort(Comparator.comparingLong(Failure::timestamp).reversed());
        return failures;
    }
}
