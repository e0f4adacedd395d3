package io.streamsplit.boot.autoconfigure.flink;

import java.time.Duration;

/** {@code streamsplit.flink.restart.*}: what Flink does when a task fails. */
public class FlinkRestartProperties {

    /** Restart strategy after a task failure. */
    public enum RestartStrategy {
        /** Fail the job on the first task failure. */
        NONE,
        /** Restart up to {@code attempts} times, waiting {@code delay} between attempts. */
        FIXED_DELAY,
        /** Restart without limit, waiting from {@code delay} up to {@code max-delay}, doubling each time. */
        EXPONENTIAL_DELAY
    }

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
