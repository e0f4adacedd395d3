package io.streamsplit.boot.flink.embedded;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.runtime.checkpoint.CheckpointException;
import org.apache.flink.runtime.checkpoint.CheckpointFailureReason;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * Warnings Flink logs in an embedded MiniCluster that say nothing about the application, kept out of
 * its log when Logback (Spring Boot's default) does the logging. Each entry is a logger and the start
 * of one exact message (its format, before arguments are filled in); nothing else from those loggers
 * is touched.
 *
 * <ul>
 *   <li>{@code Name collision: ... 'pendingCommittables'}: on every checkpoint Flink's sink committer
 *       copies its committable collector for the checkpoint state, and the copy registers the
 *       committer's {@code pendingCommittables} gauge again in the same metric group. The first gauge
 *       stays registered and correct; Flink logs one WARN per committer subtask per checkpoint (about
 *       100 a minute for two sinks at parallelism 2 and 5 s checkpoints).
 *   <li>{@code Name collision: ... 'currentSendTime'}: an exactly-once {@code KafkaSink} writer sets its
 *       send-time gauge twice when it starts (flink-connector-kafka 5.0). The gauge registered first reads
 *       whichever producer is current, so it stays correct; Flink logs one WARN per writer subtask per
 *       start.
 *   <li>{@code Log file environment variable 'log.file' is not set} and {@code JobManager log files are
 *       unavailable in the web dashboard}: the MiniCluster logs into the application's log, so there
 *       is no JobManager log file for Flink's web UI to show.
 *   <li>{@code The operator name ... exceeded the 80 characters length limit}: once per job vertex whose
 *       chained operator names are long; Flink shortens the name in metric scopes, which the actuator
 *       already expects.
 *   <li>{@code Could not addJvmShutdownHook, due to: Shutdown in progress}: when the JVM is stopped (SIGTERM,
 *       Ctrl-C), the MiniCluster's RPC actor systems are closed by the application's shutdown, and Pekko
 *       tries to register its own JVM shutdown hook once more, which the JVM refuses while it shuts down;
 *       the actor systems terminate all the same (one WARN per actor system, at every stop).
 *   <li>{@code Failed to trigger or complete checkpoint ...} with the reason {@code Checkpoint Coordinator is
 *       suspending}: a checkpoint in flight when the job stops (the application's own shutdown cancels it)
 *       or restarts, aborted because of that and not the cause of anything; other reasons for a failed
 *       checkpoint (a timeout, a task that declined) still warn. Seen at a stop under load (PipelineBenchmarkIT).
 *   <li>{@code The scheduled executor service is shutdown and ignores the command ...} (or {@code the
 *       callable}): an RPC endpoint of the cluster (a JobMaster, the dispatcher, a TaskExecutor) was already
 *       closed when a timer of its own, scheduled before, asked to run; Flink logs this only after the endpoint's
 *       executor is shut down, so only while the job or the cluster stops, and the dropped timer belonged to
 *       what stopped. Seen at a stop under load (PipelineBenchmarkIT, once in a CI run).
 * </ul>
 *
 * <p>It is a filter on the appenders, not a Logback {@code TurboFilter}: a turbo filter is asked before
 * every level check of every logger, enabled or not, and the Kafka producer asks {@code isTraceEnabled()}
 * per record — about 3 % of a stateless job's CPU went to that (JFR, docs/benchmarks.md). An appender's
 * filter only sees the events that are logged.
 */
final class KnownFlinkWarnings extends Filter<ILoggingEvent> {

    private record Known(String logger, String messageStart) {}

    private static final List<Known> KNOWN = List.of(
            new Known(
                    "org.apache.flink.metrics.MetricGroup",
                    "Name collision: Group already contains a Metric with the name 'pendingCommittables'"),
            new Known(
                    "org.apache.flink.metrics.MetricGroup",
                    "Name collision: Group already contains a Metric with the name 'currentSendTime'"),
            new Known("org.apache.flink.runtime.webmonitor.WebMonitorUtils", "Log file environment variable '"),
            new Known(
                    "org.apache.flink.runtime.webmonitor.WebMonitorUtils",
                    "JobManager log files are unavailable in the web dashboard"),
            new Known("org.apache.flink.runtime.metrics.util.MetricUtils", "The operator name "),
            new Known("org.apache.pekko.actor.CoordinatedShutdown", "Could not addJvmShutdownHook"),
            new Known(
                    "org.apache.flink.runtime.rpc.RpcEndpoint$MainThreadExecutor",
                    "The scheduled executor service is shutdown and ignores the "));

    private static final String CHECKPOINT_FAILURES = "org.apache.flink.runtime.checkpoint.CheckpointFailureManager";

    private static final String NAME = "streamsplit-known-flink-warnings";

    KnownFlinkWarnings() {
        setName(NAME);
    }

    /**
     * Adds the filter to every appender of the Logback context that lacks it (Spring Boot's logging
     * initialization resets the context, so each cluster start checks again). Call only when Logback is on
     * the classpath.
     */
    static synchronized void install() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            installForGood(context);
        }
    }

    /** {@link #install(LoggerContext)}, and again on the new appenders each time {@code context} is (re)started. */
    static void installForGood(LoggerContext context) {
        install(context);
        if (context.getCopyOfListenerList().stream().noneMatch(Reinstall.class::isInstance)) {
            // Spring Boot re-configures Logback at every application's start in the JVM (new appenders, then
            // start()); one while this cluster starts would drop the filter: put it back each time
            context.addListener(new Reinstall());
        }
    }

    /** Puts the filter on the new appenders whenever the Logback context is (re)started. */
    private static final class Reinstall implements ch.qos.logback.classic.spi.LoggerContextListener {

        @Override
        public boolean isResetResistant() {
            return true;
        }

        @Override
        public void onStart(LoggerContext context) {
            install(context);
        }

        @Override
        public void onReset(LoggerContext context) {}

        @Override
        public void onStop(LoggerContext context) {}

        @Override
        public void onLevelChange(Logger logger, Level level) {}
    }

    /** Adds the filter to every appender of {@code context}'s loggers that lacks it. */
    static void install(LoggerContext context) {
        for (Logger logger : context.getLoggerList()) {
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
                Appender<ILoggingEvent> appender = it.next();
                if (appender.getCopyOfAttachedFiltersList().stream().noneMatch(f -> NAME.equals(f.getName()))) {
                    KnownFlinkWarnings filter = new KnownFlinkWarnings();
                    filter.setContext(context);
                    filter.start();
                    appender.addFilter(filter);
                }
            }
        }
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        String format = event.getMessage();
        if (event.getLevel() != Level.WARN || format == null) {
            return FilterReply.NEUTRAL;
        }
        for (Known known : KNOWN) {
            if (known.logger().equals(event.getLoggerName()) && format.startsWith(known.messageStart())) {
                return FilterReply.DENY;
            }
        }
        return abortedByASuspend(event, format) ? FilterReply.DENY : FilterReply.NEUTRAL;
    }

    /** A checkpoint failure whose reason is that the job stops or restarts (the exception is the last argument). */
    private static boolean abortedByASuspend(ILoggingEvent event, String format) {
        if (!CHECKPOINT_FAILURES.equals(event.getLoggerName())
                || !format.startsWith("Failed to trigger or complete checkpoint")) {
            return false;
        }
        Object cause = throwable(event.getThrowableProxy());
        Object[] params = event.getArgumentArray();
        if (cause == null && params != null && params.length > 0) {
            cause = params[params.length - 1];
        }
        return cause instanceof CheckpointException failure
                && failure.getCheckpointFailureReason() == CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND;
    }

    private static @Nullable Throwable throwable(@Nullable IThrowableProxy proxy) {
        return proxy instanceof ThrowableProxy thrown ? thrown.getThrowable() : null;
    }
}
