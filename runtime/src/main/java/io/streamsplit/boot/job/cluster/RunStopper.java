package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedState;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.util.ExceptionUtils;
import org.jspecify.annotations.Nullable;

/**
 * Ends runs of the job on the cluster for an upgrade or because they should not run: stops one with
 * a savepoint, cancels one, waits until one has ended; and tells a stop that fails from one that
 * another instance did first.
 */
final class RunStopper {

    private static final Duration POLL = Duration.ofMillis(250);

    private final ClusterJobs jobs;
    private final ClusterConnection connection;
    private final JobIdentity identity;
    private final String target;
    private final Duration timeout;

    RunStopper(ClusterJobs jobs, ClusterConnection connection, JobIdentity identity, Duration timeout, String target) {
        this.jobs = jobs;
        this.connection = connection;
        this.identity = identity;
        this.target = target;
        this.timeout = timeout;
    }

    /**
     * Stops {@code current} with a savepoint into {@code directory} ({@code null}: the cluster's default); empty
     * when another instance stopped it first (its run is what this one adopts).
     */
    Optional<RetainedState> stopWithSavepoint(ClusterJob current, @Nullable String directory) throws Exception {
        try {
            String path = connection
                    .client(current.id())
                    .stopWithSavepoint(false, directory, SavepointFormatType.CANONICAL)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            awaitEnded(current.id());
            return Optional.of(new RetainedState(
                    path, RetainedState.Kind.SAVEPOINT, -1, Instant.now(), "taken to upgrade run " + current.id()));
        } catch (Exception e) {
            if (endsWithin(current.id(), timeout)) {
                return Optional.empty(); // another instance is upgrading it: its run is what this one adopts
            }
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.upgrade-mode",
                    "savepoint",
                    "the savepoint to upgrade Flink job '" + identity.name() + "' (" + current.id() + ") on " + target
                            + " failed: " + rootCause(e) + "; the job keeps running unchanged",
                    "Fix the cause (the savepoint directory " + (directory == null ? "(the cluster's)" : directory)
                            + " must be writable by the cluster; a job that is restarting cannot take one), or set"
                            + " streamsplit.flink.upgrade-mode=last-state to upgrade from its latest retained"
                            + " checkpoint.",
                    e);
        }
    }

    void requireRetainedCheckpoint(ClusterJob current, UpgradeMode mode) throws Exception {
        if (jobs.latestCheckpoint(current.id()).isEmpty()) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.upgrade-mode",
                    mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                    "the running Flink job '" + identity.name() + "' (" + current.id() + ", " + current.state()
                            + ") runs another version of this application, but has no retained checkpoint to upgrade"
                            + " from (none completed yet, or checkpoints are kept only in the JobManager's memory); the"
                            + " job keeps running unchanged",
                    "Set streamsplit.flink.checkpointing.storage to a directory the cluster can write and let the job"
                            + " complete a checkpoint, use upgrade-mode savepoint while it is RUNNING, or"
                            + " upgrade-mode stateless to start the new version from the sources' starting offsets.");
        }
    }

    /**
     * Waits while {@code run} is starting ({@code CREATED}, {@code INITIALIZING}); {@code false} when it is
     * being stopped ({@code CANCELLING}, {@code FAILING}) or ends meanwhile.
     */
    boolean awaitSettled(ClusterJob run) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JobStatus state = run.state();
        while (state == JobStatus.CREATED || state == JobStatus.INITIALIZING) {
            if (System.nanoTime() > deadline) {
                return true;
            }
            pause(POLL);
            state = jobs.find(run.id()).map(ClusterJob::state).orElse(JobStatus.CANCELED);
        }
        if (state == JobStatus.CANCELLING || state == JobStatus.FAILING || state.isGloballyTerminalState()) {
            endsWithin(run.id(), timeout);
            return false;
        }
        return true;
    }

    void cancel(ClusterJob run) throws Exception {
        try {
            connection.client(run.id()).cancel().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            if (!endsWithin(run.id(), Duration.ZERO)) {
                throw e;
            }
        }
        awaitEnded(run.id());
    }

    void awaitEnded(JobID id) throws Exception {
        if (!endsWithin(id, timeout)) {
            throw new IllegalStateException("Flink job '" + identity.name() + "' (" + id + ") did not stop within "
                    + timeout + " (streamsplit.flink.shutdown.timeout)");
        }
    }

    boolean endsWithin(JobID id, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Optional<ClusterJob> run = jobs.find(id);
            if (run.isEmpty() || run.get().state().isGloballyTerminalState()) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            pause(POLL);
        }
    }

    static String rootCause(Throwable e) {
        Throwable root = ExceptionUtils.stripCompletionException(e);
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the Flink cluster", e);
        }
    }
}
