package io.streamsplit.boot.flink.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import ch.qos.logback.core.spi.FilterReply;
import org.apache.flink.runtime.checkpoint.CheckpointException;
import org.apache.flink.runtime.checkpoint.CheckpointFailureReason;
import org.junit.jupiter.api.Test;

/** Which of Flink's WARN lines the embedded cluster keeps out of the application's log, and which it keeps. */
class KnownFlinkWarningsTest {

    private static final String FAILED_CHECKPOINT =
            "Failed to trigger or complete checkpoint {} for job {}. ({} consecutive failed attempts so far)";

    private final KnownFlinkWarnings filter = new KnownFlinkWarnings();
    private final LoggerContext context = new LoggerContext();
    private final Logger checkpoints =
            context.getLogger("org.apache.flink.runtime.checkpoint.CheckpointFailureManager");

    @Test
    void installedOnTheAppendersItKeepsKnownWarningsOutAndEverythingElseIn() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.setContext(context);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);

        KnownFlinkWarnings.install(context);
        KnownFlinkWarnings.install(context);
        context.getLogger("org.apache.flink.metrics.MetricGroup")
                .warn("Name collision: Group already contains a Metric with the name 'pendingCommittables'. x");
        context.getLogger("org.apache.flink.metrics.MetricGroup")
                .warn("Name collision: Group already contains a Metric with the name 'numRecordsIn'. x");
        context.getLogger("com.example.Mine")
                .warn("Name collision: Group already contains a Metric with the name " + "'pendingCommittables'");

        assertThat(appender.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(
                        "Name collision: Group already contains a Metric with the name 'numRecordsIn'. x",
                        "Name collision: Group already contains a Metric with the name 'pendingCommittables'");
        assertThat(appender.getCopyOfAttachedFiltersList()).as("installed once").hasSize(1);
        assertThat(context.getTurboFilterList())
                .as("no turbo filter: level checks of enabled and disabled loggers stay free")
                .isEmpty();
    }

    /**
     * Spring Boot configures Logback anew at each application's start in a JVM (tests start many): the new
     * appenders get the filter too, even when that happens while a cluster starts.
     */
    @Test
    void appendersOfALaterLogbackConfigurationGetTheFilterToo() {
        KnownFlinkWarnings.installForGood(context);
        context.reset();
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.setContext(context);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
        context.start();

        context.getLogger("org.apache.flink.runtime.webmonitor.WebMonitorUtils")
                .warn("Log file environment variable 'log.file' is not set.");
        context.getLogger("com.example.Mine").warn("Log file environment variable 'log.file' is not set.");

        assertThat(appender.list).extracting(ILoggingEvent::getLoggerName).containsExactly("com.example.Mine");
    }

    @Test
    void aCheckpointAbortedBecauseTheJobStopsOrRestartsIsNoWarning() {
        assertThat(failedCheckpoint(Level.WARN, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND))
                .isEqualTo(FilterReply.DENY);
    }

    @Test
    void aCheckpointThatFailedForAnyOtherReasonStillWarns() {
        assertThat(failedCheckpoint(Level.WARN, CheckpointFailureReason.CHECKPOINT_EXPIRED))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(failedCheckpoint(Level.WARN, CheckpointFailureReason.CHECKPOINT_DECLINED))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(filter.decide(event(checkpoints, Level.WARN, new Object[] {3L, "job", 0})))
                .as("without an exception")
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(filter.decide(event(context.getLogger("com.example.Mine"), Level.WARN, new Object[] {
                    3L, "job", 0, new CheckpointException(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND)
                })))
                .as("the same words from another logger")
                .isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void aTimerDroppedByAnRpcEndpointThatAlreadyStoppedIsNoWarning() {
        Logger executor = context.getLogger("org.apache.flink.runtime.rpc.RpcEndpoint$MainThreadExecutor");
        assertThat(filter.decide(new LoggingEvent(
                        Logger.FQCN,
                        executor,
                        Level.WARN,
                        "The scheduled executor service is shutdown and ignores the command {}",
                        null,
                        new Object[] {"FutureUtils$$Lambda"})))
                .isEqualTo(FilterReply.DENY);
        assertThat(filter.decide(new LoggingEvent(
                        Logger.FQCN,
                        executor,
                        Level.WARN,
                        "The scheduled executor service is shutdown and ignores the callable {}",
                        null,
                        new Object[] {"FutureUtils$$Lambda"})))
                .isEqualTo(FilterReply.DENY);
        assertThat(filter.decide(new LoggingEvent(
                        Logger.FQCN, executor, Level.WARN, "Something else went wrong {}", null, new Object[] {"x"})))
                .as("another warning of the same logger")
                .isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void onlyWarningsAreFiltered() {
        assertThat(failedCheckpoint(Level.ERROR, CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    private FilterReply failedCheckpoint(Level level, CheckpointFailureReason reason) {
        return filter.decide(event(checkpoints, level, new Object[] {
            3L, "eee1075f862598dc7c9ff44205936add", 0, new CheckpointException(reason)
        }));
    }

    /** The event Logback makes of {@code logger.warn(FAILED_CHECKPOINT, arguments)} (a last Throwable is the cause). */
    private static ILoggingEvent event(Logger logger, Level level, Object[] arguments) {
        return new LoggingEvent(Logger.FQCN, logger, level, FAILED_CHECKPOINT, null, arguments);
    }
}
