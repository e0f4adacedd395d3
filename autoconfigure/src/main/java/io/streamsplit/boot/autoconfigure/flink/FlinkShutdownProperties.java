package io.streamsplit.boot.autoconfigure.flink;

import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.state.ShutdownJob;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

/** {@code streamsplit.flink.shutdown.*}: what the application's shutdown does to its job. */
public class FlinkShutdownProperties {

    /**
     * What the application's shutdown does to its job: keep it running (remote mode), stop it with a
     * savepoint, or cancel it. Unset: keep in remote mode; in embedded mode savepoint when the job keeps its
     * checkpoints (the next start resumes from the savepoint and repeats nothing), else cancel.
     */
    private @Nullable ShutdownJob job;

    /** Whether to stop the job with a savepoint on shutdown; replaced by job: savepoint. */
    private boolean savepoint = false;

    /**
     * Directory (URI) the cluster writes savepoints to: at shutdown, for upgrades and from the endpoint.
     * Unset: Flink's execution.checkpointing.savepoint-dir, else '<checkpointing.storage>/savepoints'.
     */
    private @Nullable String savepointDirectory;

    /** How long to wait for the job to stop. */
    private Duration timeout = Duration.ofSeconds(30);

    public @Nullable ShutdownJob getJob() {
        return job;
    }

    public void setJob(@Nullable ShutdownJob job) {
        this.job = job;
    }

    /**
     * What shutdown does to the job in {@code mode}: {@code job}, else savepoint / keep / cancel.
     *
     * @param stateKept whether the job keeps its checkpoints where the next start finds them, with a savepoint
     *     directory beside them: an embedded job then stops with a savepoint by default, as a Kafka Streams
     *     application or a Spring Kafka listener commits what it processed when it stops cleanly
     */
    public ShutdownJob effectiveJob(FlinkMode mode, boolean stateKept) {
        if (job != null) {
            return job;
        }
        if (savepoint) {
            return ShutdownJob.SAVEPOINT;
        }
        // on a cluster the job outlives the application; in application mode the cluster (or the
        // Flink Kubernetes Operator) owns the job's end
        if (mode != FlinkMode.EMBEDDED) {
            return ShutdownJob.KEEP;
        }
        return stateKept ? ShutdownJob.SAVEPOINT : ShutdownJob.CANCEL;
    }

    @Deprecated
    @DeprecatedConfigurationProperty(replacement = "streamsplit.flink.shutdown.job", since = "0.1.0")
    public boolean isSavepoint() {
        return savepoint;
    }

    public void setSavepoint(boolean savepoint) {
        this.savepoint = savepoint;
    }

    public @Nullable String getSavepointDirectory() {
        return savepointDirectory;
    }

    public void setSavepointDirectory(@Nullable String savepointDirectory) {
        this.savepointDirectory = FlinkProperties.blankToNull(savepointDirectory);
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }
}
