package io.streamsplit.boot.autoconfigure.flink;

import java.time.Duration;

/**
 * {@code streamsplit.flink.restart.*}: what Flink does when a task fails. The defaults are Flink's own for a
 * checkpointed job (exponential-delay from 1 s up to 1 min), so a job behaves as it would wired by hand:
 * a lost TaskManager costs one second of waiting, not two, and a job that keeps failing backs off instead of
 * failing for good after a fixed number of attempts (health reports it OUT_OF_SERVICE, then DOWN, meanwhile).
 */
public class FlinkRestartProperties {

    /** Restart strategy after a task failure. */
    public enum RestartStrategy {
        /** Fail the job on the first task failure. */
        NONE,
        /** Restart up to {@code attempts} times, waiting {@code delay} between attempts. */
        FIXED_DELAY,
        /**
         * Restart without limit, waiting from {@code delay} up to {@code max-delay}, 1.5 times longer after
         * each failure in a row (Flink's multiplier and jitter; back to {@code delay} after an hour without one).
         */
        EXPONENTIAL_DELAY
    }

    /** Restart strategy: none, fixed-delay or exponential-delay (Flink's default for a checkpointed job). */
    private RestartStrategy strategy = RestartStrategy.EXPONENTIAL_DELAY;

    /** Restart attempts before the job fails for good (fixed-delay). */
    private int attempts = 10;

    /** Wait before a restart (fixed-delay), or before the first restart (exponential-delay). */
    private Duration delay = Duration.ofSeconds(1);

    /** Longest wait between restarts (exponential-delay). */
    private Duration maxDelay = Duration.ofMinutes(1);

    /**
     * The longest wait before a restart this strategy can take: {@code max-delay} for exponential-delay
     * (after failures in a row), {@code delay} otherwise. What an exactly-once sink's open transaction
     * must outlast besides the checkpoint interval.
     */
    public Duration longestDelay() {
        return strategy == RestartStrategy.EXPONENTIAL_DELAY ? maxDelay : delay;
    }

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
