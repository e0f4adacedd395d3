package io.streamsplit.pipeline.step;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.connector.kafka.source.reader.BadRecordLog;
import io.streamsplit.connector.kafka.source.reader.RecordInFlight;
import io.streamsplit.pipeline.ProcessingErrorPolicy;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.util.OutputTag;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a guarded step does when its code throws for a record: decides whether to try again (not for a
 * not-retryable exception, nor once the retries are used up), waits the back-off, and then applies the policy —
 * fails the task with the record named, skips the record, or hands its dead letter to the step's side output.
 * Counts each outcome in the operator's metric group {@value #METRIC_GROUP} and keeps the last failures for the
 * Actuator endpoint (gauge {@value #LAST_FAILURES}). One per step operator, on its task's thread.
 *
 * <pre>{@code
 * StepGuard guard = new StepGuard("price", rules, deadLetterTag);
 * guard.open(getRuntimeContext());
 * }</pre>
 */
public final class StepGuard implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(StepGuard.class);

    /** The metric group under the step's operator. */
    public static final String METRIC_GROUP = "StreamSplitStep";
    /** Counter: attempts that failed and were tried again. */
    public static final String RETRIED = "numRecordsRetried";
    /** Counter: records skipped by the {@code skip} policy. */
    public static final String SKIPPED = "numRecordsSkipped";
    /** Counter: records written to the dead-letter topic. */
    public static final String DEAD_LETTERED = "numRecordsDeadLettered";
    /** Counter: records the {@code fail} policy failed the task on. */
    public static final String FAILED = "numRecordsFailed";
    /**
     * Gauge (text): the subtask's last failures, newest last, one per line, fields separated by tabs: epoch
     * milliseconds, outcome ({@code skipped}, {@code dead-lettered}, {@code failed}), the record, the exception's
     * first line.
     */
    public static final String LAST_FAILURES = "lastFailures";

    /** How many failures a subtask keeps for {@link #LAST_FAILURES}. */
    static final int KEPT = 5;

    private final String step;
    private final StepErrorRules rules;
    private final @Nullable OutputTag<DeadLetterRecord> deadLetters;

    private transient @Nullable Counter retried;
    private transient @Nullable Counter skipped;
    private transient @Nullable Counter deadLettered;
    private transient @Nullable Counter failed;
    private transient @Nullable List<Class<?>> notRetryable;
    private transient @Nullable BadRecordLog log;
    private transient @Nullable ArrayDeque<String> last;

    /**
     * @param deadLetters the side output the step's dead letters go to; {@code null} unless the policy is
     *     dead-letter
     */
    public StepGuard(String step, StepErrorRules rules, @Nullable OutputTag<DeadLetterRecord> deadLetters) {
        if (rules.policy() == ProcessingErrorPolicy.DEAD_LETTER && deadLetters == null) {
            throw new IllegalArgumentException("step '" + step + "' dead-letters but has no dead-letter output");
        }
        this.step = step;
        this.rules = rules;
        this.deadLetters = deadLetters;
    }

    public String step() {
        return step;
    }

    public StepErrorRules rules() {
        return rules;
    }

    /** Registers the metrics and loads the not-retryable exception classes with the job's class loader. */
    public void open(RuntimeContext context) {
        MetricGroup group = context.getMetricGroup().addGroup(METRIC_GROUP);
        retried = group.counter(RETRIED, new SimpleCounter());
        skipped = group.counter(SKIPPED, new SimpleCounter());
        deadLettered = group.counter(DEAD_LETTERED, new SimpleCounter());
        failed = group.counter(FAILED, new SimpleCounter());
        ArrayDeque<String> kept = new ArrayDeque<>(KEPT);
        last = kept;
        group.gauge(LAST_FAILURES, (Gauge<String>) () -> {
            synchronized (kept) {
                return String.join("\n", kept);
            }
        });
        List<Class<?>> classes = new ArrayList<>();
        for (String name : rules.notRetryable()) {
            try {
                classes.add(Class.forName(name, false, context.getUserCodeClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(
                        "Step '" + step + "' lists " + name + " as not retryable, but no such class is on the"
                                + " job's class path",
                        e);
            }
        }
        notRetryable = classes;
        log = new BadRecordLog("failed record", "the step's metrics (" + METRIC_GROUP + ")");
    }

    /**
     * Whether attempt {@code attempt} (1: the first) that failed with {@code error} is tried again; waits the
     * back-off first. Not for a not-retryable exception, nor after the last retry.
     */
    public boolean retry(Exception error, int attempt) throws InterruptedException {
        if (error instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
            return false;
        }
        if (attempt > rules.retries() || isNotRetryable(error)) {
            return false;
        }
        count(retried);
        long wait = rules.backOffMillis(attempt);
        LOG.debug(
                "Step '{}' failed on {} (attempt {}), retrying in {} ms: {}", step, where(null), attempt, wait, error);
        if (wait > 0) {
            Thread.sleep(wait);
        }
        return true;
    }

    /**
     * Applies the policy to an element its code failed on {@code attempts} times, the last time with {@code
     * error}.
     *
     * @param key the element's key in a keyed step, else {@code null}
     * @param timestamp the element's timestamp, or {@code null}
     * @param output takes the dead letter (only called under the dead-letter policy)
     * @throws Exception {@code error} itself when the task is being cancelled, else a {@link StepFailedException}
     *     under the fail policy
     */
    public void giveUp(
            Object element,
            @Nullable Object key,
            @Nullable Long timestamp,
            Exception error,
            int attempts,
            Consumer<DeadLetterRecord> output)
            throws Exception {
        if (error instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
            throw error;
        }
        String where = where(key);
        switch (rules.policy()) {
            case SKIP -> {
                count(skipped);
                remember("skipped", where, error);
                log("Skipped", where, attempts, error);
            }
            case DEAD_LETTER -> {
                output.accept(deadLetter(element, timestamp, error));
                count(deadLettered);
                remember("dead-lettered", where, error);
                log("Dead-lettered", where, attempts, error);
            }
            default -> {
                count(failed);
                remember("failed", where, error);
                throw new StepFailedException(
                        "Step '" + step + "' failed on " + where + " after " + attempts + " attempt"
                                + (attempts == 1 ? "" : "s") + ": " + firstLine(error) + ". The job restarts from its"
                                + " last checkpoint and meets the record again: fix the code or the data, or set"
                                + " streamsplit.processing-errors.steps." + step + ".policy to dead-letter (or"
                                + " skip) to let the job go on",
                        error);
            }
        }
    }

    /** The dead letter of side output {@link #deadLetters}: the Kafka record in flight, else the element as JSON. */
    private DeadLetterRecord deadLetter(Object element, @Nullable Long timestamp, Exception error) {
        ConsumerRecord<byte[], byte[]> record = RecordInFlight.current();
        String source = RecordInFlight.currentSource();
        if (record != null && source != null) {
            return DeadLetterRecord.ofStep(step, source, record, error);
        }
        return DeadLetterRecord.ofElement(step, ElementJson.write(element), timestamp == null ? -1 : timestamp, error);
    }

    /** The side output this step's dead letters go to, or {@code null}. */
    public @Nullable OutputTag<DeadLetterRecord> deadLetters() {
        return deadLetters;
    }

    private boolean isNotRetryable(Throwable error) {
        List<Class<?>> classes = notRetryable;
        if (classes == null || classes.isEmpty()) {
            return false;
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            for (Class<?> type : classes) {
                if (type.isInstance(cause)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The record the element came from: its topic, partition and offset when a source in this chain read it. */
    private static String where(@Nullable Object key) {
        ConsumerRecord<byte[], byte[]> record = RecordInFlight.current();
        if (record != null) {
            return "the record at topic " + record.topic() + ", partition " + record.partition() + ", offset "
                    + record.offset() + " (source '" + RecordInFlight.currentSource() + "')";
        }
        return key != null
                ? "an element of key '" + key + "' (behind a key-by: no Kafka record to name)"
                : "an element (not in its source's chain: no Kafka record to name)";
    }

    private void remember(String outcome, String where, Throwable error) {
        ArrayDeque<String> kept = last;
        if (kept == null) {
            return;
        }
        String entry = Instant.now().toEpochMilli() + "\t" + outcome + "\t" + where + "\t" + firstLine(error);
        synchronized (kept) {
            if (kept.size() == KEPT) {
                kept.removeFirst();
            }
            kept.addLast(entry.replace('\n', ' '));
        }
    }

    private void log(String done, String where, int attempts, Throwable error) {
        BadRecordLog lines = log;
        String warning = lines == null
                ? null
                : lines.warning(done, "step " + step + ", " + where + ", " + attempts + " attempt(s)", error);
        if (warning != null) {
            LOG.warn(warning);
        } else {
            LOG.debug("{} a failed record (step {}, {}): {}", done, step, where, error.toString());
        }
    }

    private static void count(@Nullable Counter counter) {
        if (counter != null) {
            counter.inc();
        }
    }

    /** {@code java.lang.IllegalStateException: no price for X}, on one line. */
    static String firstLine(Throwable error) {
        String text = error.toString();
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    /** The element as JSON, for a dead letter that has no Kafka record; its {@code toString()} without Jackson. */
    static final class ElementJson {
        private static volatile @Nullable Object mapper;

        private ElementJson() {}

        static byte[] write(Object element) {
            try {
                Object m = mapper;
                if (m == null) {
                    m = tools.jackson.databind.json.JsonMapper.builder().build();
                    mapper = m;
                }
                return ((tools.jackson.databind.ObjectMapper) m).writeValueAsBytes(element);
            } catch (RuntimeException | LinkageError e) {
                return String.valueOf(element).getBytes(StandardCharsets.UTF_8);
            }
        }
    }
}
