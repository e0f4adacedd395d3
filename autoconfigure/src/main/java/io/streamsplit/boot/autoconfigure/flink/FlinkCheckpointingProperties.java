package io.streamsplit.boot.autoconfigure.flink;

import io.streamsplit.boot.job.state.StaleCheckpointAction;
import java.time.Duration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.jspecify.annotations.Nullable;

/** {@code streamsplit.flink.checkpointing.*}: checkpoint settings. */
public class FlinkCheckpointingProperties {

    /** Whether to take checkpoints. Without them offsets are not committed and sinks cannot be exactly-once. */
    private boolean enabled = true;

    /** Time between the start of two checkpoints. */
    private Duration interval = Duration.ofSeconds(10);

    /**
     * Embedded: time between checkpoints while the sources read records — a checkpoint is asked for when records
     * were read since the last one, one at a time; when nothing is read, 'interval' applies. An exactly-once
     * sink's output becomes visible at a checkpoint, so this is its latency. 0 turns it off.
     */
    private Duration busyInterval = Duration.ofMillis(250);

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

    /**
     * Directory (URI) where checkpoints are kept, e.g. 'file:///var/lib/app/checkpoints': retained when the job
     * is cancelled, and where the next start resumes. Unset: embedded, a directory under java.io.tmpdir for the
     * Kafka cluster (streamsplit/<cluster id>; in memory on the dev-mode broker); on a cluster, the cluster's own.
     */
    private @Nullable String storage;

    /** How many of the states the job's runs leave in storage are kept (embedded). */
    private final History history = new History();

    public History getHistory() {
        return history;
    }

    /**
     * {@code streamsplit.flink.checkpointing.history.*}: before each run starts, earlier runs' retained checkpoints
     * and savepoints beyond these limits are deleted; the newest state and the one the run resumes from always stay.
     */
    public static class History {

        /** At most this many retained checkpoints and savepoints of the job are kept, the newest first. */
        private int maxCount = 3;

        /** None older than this is kept, except the newest. */
        private Duration maxAge = Duration.ofDays(7);

        /**
         * A savepoint of the running job every this long (canonical format), each followed by the history's prune.
         * Unset or 0: none but the stops', upgrades' and the endpoint's.
         */
        private @Nullable Duration savepointInterval;

        public @Nullable Duration getSavepointInterval() {
            return savepointInterval;
        }

        public void setSavepointInterval(@Nullable Duration savepointInterval) {
            this.savepointInterval = savepointInterval;
        }

        public int getMaxCount() {
            return maxCount;
        }

        public void setMaxCount(int maxCount) {
            this.maxCount = maxCount;
        }

        public Duration getMaxAge() {
            return maxAge;
        }

        public void setMaxAge(Duration maxAge) {
            this.maxAge = maxAge;
        }
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getBusyInterval() {
        return busyInterval;
    }

    public void setBusyInterval(Duration busyInterval) {
        this.busyInterval = busyInterval;
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
        this.storage = FlinkProperties.blankToNull(storage);
    }
}
