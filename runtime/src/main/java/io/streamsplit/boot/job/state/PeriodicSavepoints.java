package io.streamsplit.boot.job.state;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a savepoint of the running job every {@code interval} ({@code streamsplit.flink.checkpointing.history.savepoint-interval}), as
 * the Flink Kubernetes Operator's periodic savepoints do: a state to go back to that does not depend on the
 * checkpoints Flink subsumes, in Flink's canonical format (restorable by another state backend or Flink version).
 * Each one is followed by the history's prune ({@code checkpointing.history.*}), so they never pile up.
 *
 * <p>One run's savepoints are spaced by {@code interval} counted from the later of the run's start, the last one
 * this instance took and the last one the cluster lists (another instance's): several instances following one
 * run on a cluster take about one per interval between them.
 *
 * <pre>{@code
 * PeriodicSavepoints periodic = PeriodicSavepoints.start("orders", Duration.ofHours(1), job::runningClient,
 *         job::savepointDirectory, runId -> Optional.empty(), runId -> job.keepHistoryShort());
 * // ... at shutdown
 * periodic.close();
 * }</pre>
 */
public final class PeriodicSavepoints implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicSavepoints.class);
    private static final Duration MOST_BETWEEN_LOOKS = Duration.ofSeconds(30);

    private final String jobName;
    private final Duration interval;
    private final Supplier<@Nullable JobClient> running;
    private final Supplier<@Nullable String> directory;
    private final Function<JobID, Optional<Instant>> listedLast;
    private final Consumer<JobID> afterEach;
    private final ScheduledExecutorService timer;
    /** Per run: when it was first seen running, or when its last savepoint here was taken. */
    private final Map<JobID, Instant> last = new HashMap<>();

    private long taken;

    private PeriodicSavepoints(
            String jobName,
            Duration interval,
            Supplier<@Nullable JobClient> running,
            Supplier<@Nullable String> directory,
            Function<JobID, Optional<Instant>> listedLast,
            Consumer<JobID> afterEach) {
        this.jobName = jobName;
        this.interval = interval;
        this.running = running;
        this.directory = directory;
        this.listedLast = listedLast;
        this.afterEach = afterEach;
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "streamsplit-savepoints-" + jobName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts taking savepoints of job {@code jobName}.
     *
     * @param running the job's run while it runs here and is not stopping, {@code null} otherwise
     * @param directory where savepoints go, {@code null} when nowhere (then none is taken)
     * @param listedLast when the run's last savepoint completed as the cluster lists it (another instance's)
     * @param afterEach what follows each savepoint taken: the history's prune
     */
    public static PeriodicSavepoints start(
            String jobName,
            Duration interval,
            Supplier<@Nullable JobClient> running,
            Supplier<@Nullable String> directory,
            Function<JobID, Optional<Instant>> listedLast,
            Consumer<JobID> afterEach) {
        PeriodicSavepoints periodic =
                new PeriodicSavepoints(jobName, interval, running, directory, listedLast, afterEach);
        long look = Math.max(100, Math.min(interval.toMillis() / 4, MOST_BETWEEN_LOOKS.toMillis()));
        periodic.timer.scheduleWithFixedDelay(periodic::lookOnce, look, look, TimeUnit.MILLISECONDS);
        return periodic;
    }

    /** How many savepoints this instance took. */
    public synchronized long taken() {
        return taken;
    }

    /** One look: takes a savepoint when the running run's last one is {@code interval} old (tests call it directly). */
    synchronized void lookOnce() {
        try {
            JobClient client = running.get();
            String target = directory.get();
            if (client == null || target == null) {
                return;
            }
            JobID run = client.getJobID();
            Instant now = Instant.now();
            Instant since = last.computeIfAbsent(run, started -> now);
            Optional<Instant> listed = listedLast.apply(run);
            if (listed.isPresent() && listed.get().isAfter(since)) {
                since = listed.get();
            }
            if (Duration.between(since, now).compareTo(interval) < 0) {
                return;
            }
            long started = System.nanoTime();
            String path = client.triggerSavepoint(target, SavepointFormatType.CANONICAL)
                    .get(Math.max(60_000, interval.toMillis()), TimeUnit.MILLISECONDS);
            last.put(run, Instant.now());
            taken++;
            LOG.info(
                    "Periodic savepoint of Flink job '{}' ({}) at {} in {} ms (streamsplit.flink.checkpointing.history.savepoint-interval={})",
                    jobName,
                    run,
                    path,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                    interval);
            afterEach.accept(run);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // a run that ends or restarts meanwhile refuses a savepoint: the next look tries again
            LOG.info(
                    "Periodic savepoint of Flink job '{}' not taken: {}; the next one is tried in {}",
                    jobName,
                    e.toString(),
                    interval);
            JobClient client = running.get();
            if (client != null) {
                last.put(client.getJobID(), Instant.now());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
