package io.streamsplit.benchmarks.isolated;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * When a job's split enumerator started and when it first assigned splits, taken from the two
 * enumerators' own INFO lines (Flink's {@code KafkaSourceEnumerator}: "Starting the
 * KafkaSourceEnumerator ...", "Assigning splits to readers ..."; StreamSplit's: "Source ...:
 * discovering partitions ...", "Source ...: assigning ..."). Neither source has a hook for these
 * moments, and their logs are what a user sees too. The lines are caught, not printed.
 */
final class StartupLog extends AppenderBase<ILoggingEvent> {

    static final List<String> ENUMERATORS = List.of(
            "org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumerator",
            "io.streamsplit.connector.kafka.source.enumerator.KafkaSourceEnumerator");

    private final AtomicLong enumeratorStarted = new AtomicLong();
    private final AtomicLong splitsAssigned = new AtomicLong();

    /** Listens to both enumerators' INFO lines from now on. */
    static StartupLog install() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        StartupLog log = new StartupLog();
        log.setContext(context);
        log.start();
        for (String name : ENUMERATORS) {
            Logger logger = context.getLogger(name);
            logger.setLevel(Level.INFO);
            logger.setAdditive(false);
            logger.addAppender(log);
        }
        return log;
    }

    @Override
    protected void append(ILoggingEvent event) {
        long now = System.nanoTime();
        String message = event.getMessage();
        if (message.startsWith("Starting the KafkaSourceEnumerator") || message.contains(": discovering partitions")) {
            enumeratorStarted.compareAndSet(0, now);
        } else if (message.startsWith("Assigning splits to readers") || message.contains(": assigning ")) {
            splitsAssigned.compareAndSet(0, now);
        }
    }

    /** {@code System.nanoTime()} of the enumerator's start, 0 if not seen. */
    long enumeratorStartedNanos() {
        return enumeratorStarted.get();
    }

    /** {@code System.nanoTime()} of the first split assignment, 0 if not seen. */
    long splitsAssignedNanos() {
        return splitsAssigned.get();
    }
}
