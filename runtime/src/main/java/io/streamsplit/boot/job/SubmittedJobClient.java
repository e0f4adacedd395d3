package io.streamsplit.boot.job;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * The {@link JobClient} bean: the client of the application's job, which is submitted
 * asynchronously after the context starts. Calls made before the submission completes wait for
 * it (their futures complete later); if the submission failed they fail with its cause.
 */
public final class SubmittedJobClient implements JobClient {

    private static final Duration JOB_ID_WAIT = Duration.ofMinutes(2);

    private final Supplier<CompletableFuture<JobClient>> submission;

    /** @param submission the current run's submission (a job stopped and started again is a new run) */
    public SubmittedJobClient(Supplier<CompletableFuture<JobClient>> submission) {
        this.submission = submission;
    }

    private <R> CompletableFuture<R> then(Function<JobClient, CompletableFuture<R>> call) {
        return submission.get().thenCompose(call);
    }

    @Override
    public JobID getJobID() {
        try {
            return submission
                    .get()
                    .get(JOB_ID_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                    .getJobID();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the Flink job to be submitted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("The Flink job was not submitted: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "The Flink job has not been submitted after " + JOB_ID_WAIT
                            + "; is streamsplit.flink.enabled false, or is the cluster unreachable?",
                    e);
        }
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
        return then(JobClient::getJobStatus);
    }

    @Override
    public CompletableFuture<Void> cancel() {
        return then(JobClient::cancel);
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(
            boolean advanceToEndOfEventTime, String savepointDirectory, SavepointFormatType formatType) {
        return then(c -> c.stopWithSavepoint(advanceToEndOfEventTime, savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(String savepointDirectory, SavepointFormatType formatType) {
        return then(c -> c.triggerSavepoint(savepointDirectory, formatType));
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators() {
        return then(JobClient::getAccumulators);
    }

    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        return then(JobClient::getJobExecutionResult);
    }

    @Override
    public String toString() {
        CompletableFuture<JobClient> current = submission.get();
        return current.isDone() && !current.isCompletedExceptionally()
                ? "JobClient[" + current.join().getJobID() + "]"
                : "JobClient[not submitted yet]";
    }
}
