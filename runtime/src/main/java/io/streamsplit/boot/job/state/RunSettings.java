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
 */
public record RunSettings(UpgradeMode upgradeMode, @Nullable String restorePath, Duration stopTimeout) {}
