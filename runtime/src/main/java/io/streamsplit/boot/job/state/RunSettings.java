package io.streamsplit.boot.job.state;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How a run of the job starts and ends, as {@code streamsplit.flink.*} configures it: the state a run starts
 * from when none is active, how it replaces a run another version of the application submitted, and how long
 * stopping a run may take.
 *
 * <pre>{@code
 * RunSettings runs = new RunSettings(UpgradeMode.SAVEPOINT, null, Duration.ofSeconds(30));
 * }</pre>
 *
 * @param upgradeMode how another version's run is replaced ({@code streamsplit.flink.upgrade-mode})
 * @param restorePath the savepoint or checkpoint a run starts from when none is active
 *     ({@code streamsplit.flink.restore-path}), {@code null}: the newest state an earlier run left
 * @param stopTimeout how long stopping a run may take, savepoint included ({@code streamsplit.flink.shutdown.timeout})
 * @param version this application's version ({@code spring.application.version}, from the jar's manifest), stored
 *     with each run it submits; {@code null} when unknown
 * @param allowDowngrade whether this version replaces a run of a newer one ({@code streamsplit.flink.allow-downgrade}:
 *     a deliberate rollback); otherwise it follows that run
 * @param history how many of the states earlier runs left are kept once a new run started
 *     ({@code streamsplit.flink.checkpointing.history.*})
 */
public record RunSettings(
        UpgradeMode upgradeMode,
        @Nullable String restorePath,
        Duration stopTimeout,
        @Nullable String version,
        boolean allowDowngrade,
        StateHistory.Limits history) {

    /** Settings of an application whose version is not known, with the default history. */
    public RunSettings(UpgradeMode upgradeMode, @Nullable String restorePath, Duration stopTimeout) {
        this(upgradeMode, restorePath, stopTimeout, null, false, StateHistory.Limits.DEFAULT);
    }

    /** These settings for version {@code version} of the application. */
    public RunSettings withVersion(@Nullable String version) {
        return new RunSettings(upgradeMode, restorePath, stopTimeout, version, allowDowngrade, history);
    }

    /** These settings keeping {@code history}. */
    public RunSettings withHistory(StateHistory.Limits history) {
        return new RunSettings(upgradeMode, restorePath, stopTimeout, version, allowDowngrade, history);
    }
}
