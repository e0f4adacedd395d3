package io.streamsplit.boot.autoconfigure.kafka;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * {@code streamsplit.kafka.sources.<name>.watermarks.*}: how the event-time watermarks of one source are
 * generated.
 */
public class SourceWatermarks {

    /** How event-time watermarks are generated for this source. */
    public enum Strategy {
        /** No watermarks: processing-time pipelines. */
        NONE,
        /** Timestamps only ever increase per partition. */
        MONOTONOUS,
        /** Timestamps arrive out of order by at most {@code max-out-of-orderness}. */
        BOUNDED_OUT_OF_ORDERNESS
    }

    /** Watermark strategy. */
    private Strategy strategy = Strategy.NONE;

    /** Largest expected lateness of a record, for 'bounded-out-of-orderness'. */
    private Duration maxOutOfOrderness = Duration.ofSeconds(5);

    /** A partition without records for this long stops holding back the watermark. Unset: never idle. */
    private @Nullable Duration idleTimeout;

    public Strategy getStrategy() {
        return strategy;
    }

    public void setStrategy(Strategy strategy) {
        this.strategy = strategy;
    }

    public Duration getMaxOutOfOrderness() {
        return maxOutOfOrderness;
    }

    public void setMaxOutOfOrderness(Duration maxOutOfOrderness) {
        this.maxOutOfOrderness = maxOutOfOrderness;
    }

    public @Nullable Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(@Nullable Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }
}
