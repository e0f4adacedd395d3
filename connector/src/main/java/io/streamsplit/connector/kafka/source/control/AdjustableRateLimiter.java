package io.streamsplit.connector.kafka.source.control;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;

/**
 * One reader's share of its source's rate limit, changeable while the job runs. Like Flink's
 * Guava-based limiter it lets a request through at once and makes the next one wait for the
 * permits the previous took; unlike it, the rate can change (or go to 0: unthrottled) between
 * requests, and no thread of its own waits: the returned future completes on the JDK's delayed
 * executor. Saved-up time is not banked: after an idle spell, the rate starts over.
 *
 * <p>Both methods are called on the reader's task thread (a rate change arrives as a source event
 * there). A change takes effect at once: a wait still running for the old rate ends.
 */
@Internal
public final class AdjustableRateLimiter<S extends SourceSplit> implements RateLimiter<S> {

    private static final CompletableFuture<Void> NOW = CompletableFuture.completedFuture(null);

    private double perSecond;
    private long nextFreeNanos = System.nanoTime();
    private CompletableFuture<Void> waiting = NOW;

    /** @param perSecond this reader's records per second, or 0: unthrottled */
    public AdjustableRateLimiter(double perSecond) {
        setRate(perSecond);
    }

    /** This reader's records per second from now on; 0: unthrottled. */
    public void setRate(double perSecond) {
        if (perSecond < 0 || Double.isNaN(perSecond)) {
            throw new IllegalArgumentException("rate " + perSecond + " is negative");
        }
        this.perSecond = perSecond;
        nextFreeNanos = System.nanoTime();
        waiting.complete(null);
    }

    /**
     * The wait for the permits the last request took: done when the next request may go, also done
     * at once when the rate changes. The reader is unavailable until then.
     */
    public CompletableFuture<Void> pending() {
        return waiting;
    }

    /** This reader's records per second, or 0: unthrottled. */
    public double rate() {
        return perSecond;
    }

    @Override
    public CompletionStage<Void> acquire(int numberOfEvents) {
        double rate = perSecond;
        long now = System.nanoTime();
        if (rate <= 0) {
            nextFreeNanos = now;
            return NOW;
        }
        long start = Math.max(now, nextFreeNanos);
        nextFreeNanos = start + (long) (numberOfEvents * 1e9 / rate);
        long wait = start - now;
        if (wait <= 0) {
            return NOW;
        }
        waiting = CompletableFuture.runAsync(() -> {}, CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS));
        return waiting;
    }
}
