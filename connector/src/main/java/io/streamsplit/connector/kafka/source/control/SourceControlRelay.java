package io.streamsplit.connector.kafka.source.control;

import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator's half of a source's control: reads the control topic every second on the
 * enumerator's worker thread and sends the control in force to every reader when it changes, and
 * to each reader when it (re)registers. Until the topic has been read once, readers hear nothing
 * and stay paused, so a job restarted while paused does not read a record; if the topic cannot be
 * read, readers are told to run (the control topic must not stop a pipeline) and the problem is
 * logged once.
 */
@Internal
public final class SourceControlRelay implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SourceControlRelay.class);
    static final long POLL_INTERVAL_MILLIS = 1_000;

    private final String sourceName;
    private final String topic;
    private final Supplier<ControlTopicReader> readerFactory;
    private final SplitEnumeratorContext<?> context;
    private @Nullable ControlTopicReader reader;
    private @Nullable SourceControl current;
    private boolean unreadable;
    private volatile boolean closed;

    public SourceControlRelay(
            String sourceName,
            String topic,
            Supplier<ControlTopicReader> readerFactory,
            SplitEnumeratorContext<?> context) {
        this.sourceName = sourceName;
        this.topic = topic;
        this.readerFactory = readerFactory;
        this.context = context;
    }

    /** Starts reading the control topic. */
    public void start() {
        ControlTopicReader started = readerFactory.get();
        reader = started;
        LOG.info("Source {}: taking pause, resume and rate commands from control topic {}", sourceName, topic);
        context.callAsync(started::poll, this::onControl, 0, POLL_INTERVAL_MILLIS);
    }

    /** A reader registered (at start or after a failure): it learns the control in force. */
    public void addReader(int subtask) {
        if (current != null) {
            context.sendEventToSourceReader(subtask, new SourceControlEvent(current));
        }
    }

    private void onControl(@Nullable SourceControl control, @Nullable Throwable error) {
        if (closed) {
            return;
        }
        if (error != null) {
            if (!unreadable) {
                LOG.warn(
                        "Source {}: cannot read control topic {} ({}); the source keeps its current state ({}) and"
                                + " pause, resume and rate commands wait until the topic can be read",
                        sourceName,
                        topic,
                        error.getMessage(),
                        current == null ? "running" : describe(current));
                unreadable = true;
            }
            if (current == null) {
                publish(SourceControl.RUNNING);
            }
            return;
        }
        if (unreadable) {
            LOG.info("Source {}: control topic {} can be read again", sourceName, topic);
            unreadable = false;
        }
        if (control != null && !control.equals(current)) {
            if (current != null || !control.equals(SourceControl.RUNNING)) {
                LOG.info("Source {}: {} (control topic {})", sourceName, describe(control), topic);
            }
            publish(control);
        }
    }

    private void publish(SourceControl control) {
        current = control;
        for (int subtask : context.registeredReaders().keySet()) {
            context.sendEventToSourceReader(subtask, new SourceControlEvent(control));
        }
    }

    private static String describe(SourceControl control) {
        String rate = control.maxRecordsPerSecond() == null
                ? "configured rate"
                : control.maxRecordsPerSecond() == 0 ? "unthrottled" : control.maxRecordsPerSecond() + " records/s";
        return (control.paused() ? "paused" : "reading") + ", " + rate;
    }

    @Override
    public void close() {
        closed = true;
        if (reader != null) {
            reader.close();
        }
    }
}
