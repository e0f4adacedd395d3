package io.streamsplit.boot.job;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints an embedded job often while its sources read, and leaves it to Flink's periodic interval when
 * they do not ({@code streamsplit.flink.checkpointing.busy-interval}).
 *
 * <p>An exactly-once sink's output becomes visible when the checkpoint that covers it completes, so the
 * checkpoint interval is the pipeline's latency; Kafka Streams commits every 100 ms by default. A short
 * periodic interval would buy that latency with work every interval when nothing moves: Flink takes every
 * checkpoint whether data moved or not (about 0.011 cores at 1 s on an idle job). Here, every {@code interval}
 * the job's progress (the sum of the sources' read positions, read in-process) is compared with what it was
 * when the last checkpoint was asked for; when the sources read since, another checkpoint is asked for. One at
 * a time, and the next no sooner than the last one took, so a slow checkpoint under load never has another
 * waiting behind it: at most half the time is spent checkpointing. An idle job costs a few counters read per
 * interval; Flink's own interval still covers output that timers make without new input.
 *
 * <pre>{@code
 * BusyCheckpoints busy = BusyCheckpoints.start("orders", Duration.ofMillis(250), job::runningJobId,
 *         jobId -> metrics.progress(jobId), cluster::triggerCheckpoint);
 * // ... at shutdown
 * busy.close();
 * }</pre>
 */
public final class BusyCheckpoints implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BusyCheckpoints.class);

    private final String jobName;
    private final Duration interval;
    private final Supplier<@Nullable String> runningJob;
    private final ToLongFunction<String> progress;
    private final Function<String, CompletableFuture<?>> trigger;
    private final ScheduledExecutorService timer;

    private @Nullable String lastJob;
    private long progressAtLastTrigger = Long.MIN_VALUE;
    private @Nullable CompletableFuture<?> inFlight;
    private long notBeforeNanos;
    private long triggered;

    private BusyCheckpoints(
            String jobName,
            Duration interval,
            Supplier<@Nullable String> runningJob,
            ToLongFunction<String> progress,
            Function<String, CompletableFuture<?>> trigger) {
        this.jobName = jobName;
        this.interval = interval;
        this.runningJob = runningJob;
        this.progress = progress;
        this.trigger = trigger;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "streamsplit-busy-checkpoints-" + jobName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Looks at the job every {@code interval} from now on.
     *
     * @param runningJob the id of the job's current run while it runs here, {@code null} when it does not
     * @param progress a number that grows whenever the run's sources read a record
     * @param trigger asks the cluster for a checkpoint of the run; completes when it completed
     */
    public static BusyCheckpoints start(
            String jobName,
            Duration interval,
            Supplier<@Nullable String> runningJob,
            ToLongFunction<String> progress,
            Function<String, CompletableFuture<?>> trigger) {
        BusyCheckpoints busy = new BusyCheckpoints(jobName, interval, runningJob, progress, trigger);
        long millis = Math.max(1, interval.toMillis());
        busy.timer.scheduleWithFixedDelay(busy::look, millis, millis, TimeUnit.MILLISECONDS);
        return busy;
    }

    /** How many checkpoints were asked for so far. */
    public synchronized long triggered() {
        return triggered;
    }

    /** One look: asks for a checkpoint when the sources read since the last one was asked for. */
    synchronized void look() {
        try {
            String jobId = runningJob.get();
            if (jobId == null) {
                return;
            }
            if (!jobId.equals(lastJob)) {
                lastJob = jobId; // a new run: its first checkpoint is FirstCheckpoint's, then Flink's or ours
                progressAtLastTrigger = progress.applyAsLong(jobId);
                inFlight = null;
                return;
            }
            if ((inFlight != null && !inFlight.isDone()) || System.nanoTime() < notBeforeNanos) {
                return;
            }
            long now = progress.applyAsLong(jobId);
            if (now == progressAtLastTrigger) {
                return;
            }
            progressAtLastTrigger = now;
            triggered++;
            long started = System.nanoTime();
            inFlight = trigger.apply(jobId).whenComplete((done, failure) -> {
                synchronized (this) {
                    // never more than half the time checkpointing: a checkpoint that took 400 ms waits 400 ms
                    long took = System.nanoTime() - started;
                    notBeforeNanos = System.nanoTime() + Math.max(0, took - interval.toNanos());
                }
                if (failure != null) {
                    // a run that is restarting or stopping declines; Flink's interval and health cover the rest
                    LOG.debug(
                            "A checkpoint of Flink job '{}' ({}) was not taken: {}",
                            jobName,
                            jobId,
                            failure.toString());
                }
            });
        } catch (RuntimeException e) {
            LOG.debug("Could not look at the progress of Flink job '{}': {}", jobName, e.toString());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
