package io.streamsplit.boot.job.failure;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The job's failures since the application started, over all its runs: the last {@value #KEPT} (when, which run,
 * the cause in StreamSplit's words, the root exception's class, the task) and a count per root exception class.
 * {@link JobFailureReporter} adds each failure Flink's exception history shows, once; the endpoint and the meters
 * read it.
 *
 * <pre>{@code
 * job.failureLog().recent().forEach(f -> log.info("{} {}", f.time(), f.cause()));
 * }</pre>
 */
public final class JobFailureLog {

    /** How many failures are kept. */
    public static final int KEPT = 20;

    /**
     * One failure.
     *
     * @param cause what StreamSplit says of it (the Kafka problem, a step's record, or the root cause)
     * @param causeClass the root exception's class name
     * @param task the task it failed in, or {@code null} for the whole job
     */
    public record Entry(
            Instant time,
            String jobId,
            String cause,
            String causeClass,
            @Nullable String task) {}

    private final Deque<Entry> recent = new ArrayDeque<>();
    private final Map<String, Long> byCause = new TreeMap<>();

    synchronized void add(Entry entry) {
        if (recent.size() == KEPT) {
            recent.removeFirst();
        }
        recent.addLast(entry);
        byCause.merge(entry.causeClass(), 1L, Long::sum);
    }

    /** The last failures, newest first. */
    public synchronized List<Entry> recent() {
        List<Entry> newestFirst = new ArrayList<>(recent);
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** How many failures each root exception class caused since the application started. */
    public synchronized Map<String, Long> countsByCause() {
        return Map.copyOf(byCause);
    }
}
