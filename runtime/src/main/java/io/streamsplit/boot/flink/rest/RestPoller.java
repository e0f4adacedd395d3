package io.streamsplit.boot.flink.rest;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A daemon thread that runs a poll of Flink's REST API at a fixed delay. {@link #stop()} lets a poll in
 * flight finish (up to {@link #GRACE}): interrupting it would abort its HTTP exchange, and Flink's REST
 * handler then logs "The connection was unexpectedly closed by the client" as a WARN in a healthy
 * application's shutdown.
 */
public final class RestPoller {

    static final Duration GRACE = Duration.ofSeconds(5);

    private final ScheduledExecutorService scheduler;
    private volatile @Nullable Thread thread;

    /** Starts polling: {@code poll} runs every {@code interval}, first after one interval, on thread {@code name}. */
    public RestPoller(String name, Duration interval, Runnable poll) {
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread created = new Thread(runnable, name);
            created.setDaemon(true);
            thread = created;
            return created;
        });
        scheduler.scheduleWithFixedDelay(poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** No further polls; waits for one in flight unless called from the poll itself. */
    public void stop() {
        scheduler.shutdown();
        if (Thread.currentThread() == thread) {
            return;
        }
        try {
            if (!scheduler.awaitTermination(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            scheduler.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
