package io.streamsplit.boot.job.failure;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.util.ExceptionUtils;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a run of the job ended, or why it did not start, in the user's words: the one line the application logs
 * when a run fails for good or finishes, and the reason a submission failed, with what to do when the job cannot
 * start from the state it resumes.
 *
 * <pre>{@code
 * RunOutcomes outcomes = new RunOutcomes("orders", failures);
 * client.getJobExecutionResult().whenComplete((result, failure) -> outcomes.ended(client.getJobID(), failure));
 * }</pre>
 */
public final class RunOutcomes {

    private static final Logger LOG = LoggerFactory.getLogger(RunOutcomes.class);

    private final String jobName;
    private final @Nullable JobFailures failures;

    /** @param failures what a failure means in {@code application.yml}'s terms; {@code null}: the root cause only */
    public RunOutcomes(String jobName, @Nullable JobFailures failures) {
        this.jobName = jobName;
        this.failures = failures;
    }

    /** Logs how run {@code id} ended by itself: failed for good after its restarts ({@code failure}), or finished. */
    public void ended(JobID id, @Nullable Throwable failure) {
        if (failure != null) {
            String text = ExceptionUtils.stringifyException(failure);
            String cause = failures != null ? failures.describe(text, null) : JobFailures.rootCause(text) + ".";
            LOG.error(
                    "Flink job '{}' ({}) failed for good after its restarts: {} The application keeps"
                            + " running without it; fix the cause and restart the application.",
                    jobName,
                    id,
                    cause);
            LOG.debug("Flink job '{}' failure:", jobName, failure);
        } else {
            LOG.info("Flink job '{}' ({}) finished (all sources are bounded and fully read)", jobName, id);
        }
    }

    /**
     * Why a submission failed: the root cause, and what to do when the job cannot start from the state it resumes
     * (its operators changed; Flink's own message speaks of a command-line option the application has no use for).
     *
     * @param job the job's configuration, which names the state it resumes
     */
    public static String notStarted(Throwable failure, ReadableConfig job) {
        if (!ExceptionUtils.stringifyException(failure).contains("Cannot map checkpoint/savepoint state")) {
            return rootMessage(failure);
        }
        String from = job.getOptional(StateRecoveryOptions.SAVEPOINT_PATH).orElse("its retained state");
        return rootMessage(failure) + ". The job changed since " + from + " was taken: give its operators the"
                + " uid(\"…\") they had there, drop the state of operators it no longer has with"
                + " streamsplit.flink.configuration.execution.state-recovery.ignore-unclaimed-state=true, or start"
                + " without state by moving that checkpoint's directory aside";
    }

    /** The innermost cause, as {@code SimpleName: message}. */
    public static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
