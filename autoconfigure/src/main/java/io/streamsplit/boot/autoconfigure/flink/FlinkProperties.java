package io.streamsplit.boot.autoconfigure.flink;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.core.execution.CheckpointingMode;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/** Where and how the pipelines run, {@code streamsplit.flink.*}. */
public class FlinkProperties {

    /** Where the job runs. */
    public enum Mode {
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

    /** What to do with a retained checkpoint whose offsets do not fit the topics in Kafka. */
    public enum StaleCheckpointAction {
        /** Fail startup with a report naming the topics and partitions. */
        FAIL,
        /** Move the job's checkpoints aside (renamed, not deleted) and start from the starting offsets. */
        START_FRESH,
        /** Resume anyway; the offset reset strategy decides where out-of-range partitions continue. */
        RESUME
    }

    /**
     * How the application replaces a run of its job that another version of it submitted (remote mode);
     * the Flink Kubernetes Operator's upgrade modes.
     */
    public enum UpgradeMode {
        /** Stop the running job with a savepoint and start the new version from it. */
        SAVEPOINT,
        /** Cancel the running job and start the new version from its latest retained checkpoint. */
        LAST_STATE,
        /** Cancel the running job and start the new version from the sources' starting offsets, without state. */
        STATELESS
    }

    /** What the application's shutdown does to its job. */
    public enum ShutdownJob {
        /** Leave the job running on the cluster (remote mode only); the next start of the application adopts it. */
        KEEP,
        /** Stop the job with a savepoint; the next start resumes from it. */
        SAVEPOINT,
        /** Cancel the job; its latest retained checkpoint is where the next start resumes. */
        CANCEL
    }

    /** Restart strategy after a task failure. */
    public enum RestartStrategy {
        /** Fail the job on the first task failure. */
        NONE,
        /** Restart up to {@code attempts} times, waiting {@code delay} between attempts. */
        FIXED_DELAY,
        /** Restart without limit, waiting from {@code delay} up to {@code max-delay}, doubling each time. */
        EXPONENTIAL_DELAY
    }

    /** Run the job in-process (embedded) or on a Flink session cluster (remote). */
    private Mode mode = Mode.EMBEDDED;

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

    /** Raw Flink configuration (for example 'state.backend.type: rocksdb'); applied last, so it wins. */
    private Map<String, String> configuration = new LinkedHashMap<>();

    /** Checkpointing: drives offset commits, exactly-once sinks and recovery. */
    private final Checkpointing checkpointing = new Checkpointing();

    /** What Flink does when a task fails. */
    private final Restart restart = new Restart();

    /** The in-process MiniCluster (embedded mode). */
    private final Embedded embedded = new Embedded();

    /** The Flink session cluster (remote mode). */
    @NestedConfigurationProperty
    private final FlinkRemoteProperties remote = new FlinkRemoteProperties();

    /** What happens to the job when the application shuts down. */
    private final Shutdown shutdown = new Shutdown();

    /** Checkpoint settings. */
    public static class Checkpointing {

        /** Whether to take checkpoints. Without them offsets are not committed and sinks cannot be exactly-once. */
        private boolean enabled = true;

        /** Time between the start of two checkpoints. */
        private Duration interval = Duration.ofSeconds(10);

        /** Checkpointing guarantee: exactly-once or at-least-once. */
        private CheckpointingMode mode = CheckpointingMode.EXACTLY_ONCE;

        /** A checkpoint that takes longer than this is aborted. */
        private Duration timeout = Duration.ofMinutes(10);

        /** Minimum pause between the end of a checkpoint and the start of the next. Unset: none. */
        private @Nullable Duration minPause;

        /**
         * What an embedded job does when the newest retained checkpoint does not fit the topics in Kafka
         * (a topic gone, an offset beyond a partition's end: the topics were deleted and recreated):
         * fail with a report, start-fresh (move the job's checkpoints aside), or resume anyway.
         */
        private StaleCheckpointAction onStaleCheckpoint = StaleCheckpointAction.FAIL;

        /**
         * Whether a new run takes its first checkpoint as soon as all its subtasks run, instead of at a
         * random point in the first interval: an exactly-once sink's output appears only when a checkpoint
         * commits it.
         */
        private boolean firstOnStart = true;

        /** Directory (URI) where checkpoints are kept, e.g. 'file:///var/lib/app/checkpoints'. Unset: kept in JobManager memory, gone with the cluster. */
        private @Nullable String storage;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public CheckpointingMode getMode() {
            return mode;
        }

        public void setMode(CheckpointingMode mode) {
            this.mode = mode;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public @Nullable Duration getMinPause() {
            return minPause;
        }

        public void setMinPause(@Nullable Duration minPause) {
            this.minPause = minPause;
        }

        public boolean isFirstOnStart() {
            return firstOnStart;
        }

        public void setFirstOnStart(boolean firstOnStart) {
            this.firstOnStart = firstOnStart;
        }

        public StaleCheckpointAction getOnStaleCheckpoint() {
            return onStaleCheckpoint;
        }

        public void setOnStaleCheckpoint(StaleCheckpointAction onStaleCheckpoint) {
            this.onStaleCheckpoint = onStaleCheckpoint;
        }

        public @Nullable String getStorage() {
            return storage;
        }

        /** A blank value (e.g. {@code storage=} in a test that overrides the application's) means unset. */
        public void setStorage(@Nullable String storage) {
            this.storage = blankToNull(storage);
        }
    }

    /** Restart settings. */
    public static class Restart {

        /** Restart strategy: none, fixed-delay or exponential-delay. */
        private RestartStrategy strategy = RestartStrategy.FIXED_DELAY;

        /** Restart attempts before the job fails for good (fixed-delay). */
        private int attempts = 10;

        /** Wait before a restart (fixed-delay), or before the first restart (exponential-delay). */
        private Duration delay = Duration.ofSeconds(2);

        /** Longest wait between restarts (exponential-delay). */
        private Duration maxDelay = Duration.ofMinutes(1);

        public RestartStrategy getStrategy() {
            return strategy;
        }

        public void setStrategy(RestartStrategy strategy) {
            this.strategy = strategy;
        }

        public int getAttempts() {
            return attempts;
        }

        public void setAttempts(int attempts) {
            this.attempts = attempts;
        }

        public Duration getDelay() {
            return delay;
        }

        public void setDelay(Duration delay) {
            this.delay = delay;
        }

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }
    }

    /** Embedded MiniCluster settings, sized for an application rather than a cluster node. */
    public static class Embedded {

        /** REST port of the MiniCluster (Flink's web UI when flink-runtime-web is on the classpath). Unset: a free port. */
        private @Nullable Integer restPort;

        /** Task slots of the one TaskManager. Unset: the job's parallelism. */
        private @Nullable Integer taskSlots;

        /** Flink managed memory (RocksDB state, sorting, batch operators). */
        private DataSize managedMemory = DataSize.ofMegabytes(64);

        /** Memory for network buffers between operators. */
        private DataSize networkMemory = DataSize.ofMegabytes(64);

        public @Nullable Integer getRestPort() {
            return restPort;
        }

        public void setRestPort(@Nullable Integer restPort) {
            this.restPort = restPort;
        }

        public @Nullable Integer getTaskSlots() {
            return taskSlots;
        }

        public void setTaskSlots(@Nullable Integer taskSlots) {
            this.taskSlots = taskSlots;
        }

        public DataSize getManagedMemory() {
            return managedMemory;
        }

        public void setManagedMemory(DataSize managedMemory) {
            this.managedMemory = managedMemory;
        }

        public DataSize getNetworkMemory() {
            return networkMemory;
        }

        public void setNetworkMemory(DataSize networkMemory) {
            this.networkMemory = networkMemory;
        }
    }

    /** Shutdown settings. */
    public static class Shutdown {

        /**
         * What the application's shutdown does to its job: keep it running (remote mode), stop it with a
         * savepoint, or cancel it. Unset: keep in remote mode, cancel in embedded mode.
         */
        private @Nullable ShutdownJob job;

        /** Whether to stop the job with a savepoint on shutdown; replaced by job: savepoint. */
        private boolean savepoint = false;

        /**
         * Directory (URI) the cluster writes savepoints to: at shutdown, for upgrades and from the endpoint.
         * Unset: Flink's execution.checkpointing.savepoint-dir.
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

        /** What shutdown does to the job in {@code mode}: {@code job}, else savepoint / keep / cancel. */
        public ShutdownJob effectiveJob(Mode mode) {
            if (job != null) {
                return job;
            }
            if (savepoint) {
                return ShutdownJob.SAVEPOINT;
            }
            // on a cluster the job outlives the application; in application mode the cluster (or the
            // Flink Kubernetes Operator) owns the job's end
            return mode == Mode.EMBEDDED ? ShutdownJob.CANCEL : ShutdownJob.KEEP;
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
            this.savepointDirectory = blankToNull(savepointDirectory);
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    public Mode getMode() {
        return mode;
    }

    public void setMode(Mode mode) {
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

    public Checkpointing getCheckpointing() {
        return checkpointing;
    }

    public Restart getRestart() {
        return restart;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    public FlinkRemoteProperties getRemote() {
        return remote;
    }

    public Shutdown getShutdown() {
        return shutdown;
    }
}
