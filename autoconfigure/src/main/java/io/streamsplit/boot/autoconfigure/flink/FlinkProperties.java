package io.streamsplit.boot.autoconfigure.flink;

import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/** Where and how the pipelines run, {@code streamsplit.flink.*}. */
public class FlinkProperties {

    /** Run the job in-process (embedded) or on a Flink session cluster (remote). */
    private FlinkMode mode = FlinkMode.EMBEDDED;

    /** Whether to submit the pipelines when the application starts. */
    private boolean enabled = true;

    /** Name of the Flink job. Unset: spring.application.name, else 'streamsplit'. */
    private @Nullable String jobName;

    /** Default parallelism of the job. Unset: the number of CPU cores in embedded mode, the cluster default in remote mode. */
    private @Nullable Integer parallelism;

    /**
     * Savepoint or retained checkpoint to start the job from when no run of it is active. Unset: the newest
     * state an earlier run left (retained checkpoint or savepoint), else the sources' starting offsets.
     */
    private @Nullable String restorePath;

    /**
     * How a running job that another version of the application submitted is replaced (remote mode):
     * savepoint, last-state (its latest retained checkpoint) or stateless.
     */
    private UpgradeMode upgradeMode = UpgradeMode.SAVEPOINT;

    /**
     * Whether this version of the application replaces a job that a newer version runs (a deliberate rollback).
     * Otherwise an older instance — one that restarts during a rolling update — follows the newer run. Versions are
     * spring.application.version, from the jar's manifest.
     */
    private boolean allowDowngrade = false;

    /**
     * Start, run every start-up check, build the job, log what the start would do (submit, resume from which
     * state, adopt or upgrade which run) and exit without submitting, stopping or upgrading the job: a step
     * before a rollout. A failed check fails the start (exit status 1).
     */
    private boolean dryRun = false;

    /** Raw Flink configuration (for example 'state.backend.type: rocksdb'); applied last, so it wins. */
    private Map<String, String> configuration = new LinkedHashMap<>();

    /** Checkpointing: drives offset commits, exactly-once sinks and recovery. */
    @NestedConfigurationProperty
    private final FlinkCheckpointingProperties checkpointing = new FlinkCheckpointingProperties();

    /** What Flink does when a task fails. */
    @NestedConfigurationProperty
    private final FlinkRestartProperties restart = new FlinkRestartProperties();

    /** The in-process MiniCluster (embedded mode). */
    @NestedConfigurationProperty
    private final FlinkEmbeddedProperties embedded = new FlinkEmbeddedProperties();

    /** The Flink session cluster (remote mode). */
    @NestedConfigurationProperty
    private final FlinkRemoteProperties remote = new FlinkRemoteProperties();

    /** What happens to the job when the application shuts down. */
    @NestedConfigurationProperty
    private final FlinkShutdownProperties shutdown = new FlinkShutdownProperties();

    public FlinkMode getMode() {
        return mode;
    }

    public void setMode(FlinkMode mode) {
        this.mode = mode;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public @Nullable String getJobName() {
        return jobName;
    }

    public void setJobName(@Nullable String jobName) {
        this.jobName = jobName;
    }

    public @Nullable Integer getParallelism() {
        return parallelism;
    }

    public void setParallelism(@Nullable Integer parallelism) {
        this.parallelism = parallelism;
    }

    public @Nullable String getRestorePath() {
        return restorePath;
    }

    public void setRestorePath(@Nullable String restorePath) {
        this.restorePath = blankToNull(restorePath);
    }

    /** Blank settings that name a place mean unset, as leaving them out does. */
    static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }

    public boolean isDryRun() {
        return dryRun;
    }

    public void setDryRun(boolean dryRun) {
        this.dryRun = dryRun;
    }

    public boolean isAllowDowngrade() {
        return allowDowngrade;
    }

    public void setAllowDowngrade(boolean allowDowngrade) {
        this.allowDowngrade = allowDowngrade;
    }

    public UpgradeMode getUpgradeMode() {
        return upgradeMode;
    }

    public void setUpgradeMode(UpgradeMode upgradeMode) {
        this.upgradeMode = upgradeMode;
    }

    public Map<String, String> getConfiguration() {
        return configuration;
    }

    public void setConfiguration(Map<String, String> configuration) {
        this.configuration = configuration;
    }

    public FlinkCheckpointingProperties getCheckpointing() {
        return checkpointing;
    }

    public FlinkRestartProperties getRestart() {
        return restart;
    }

    public FlinkEmbeddedProperties getEmbedded() {
        return embedded;
    }

    public FlinkRemoteProperties getRemote() {
        return remote;
    }

    public FlinkShutdownProperties getShutdown() {
        return shutdown;
    }
}
