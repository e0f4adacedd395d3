package io.streamsplit.boot.flink.embedded;

import java.net.URL;
import java.security.CodeSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;

/**
 * Keeps a harmless Flink warning out of a fat-jar application's startup log.
 *
 * <p>When the MiniCluster starts, Flink lists every metric reporter factory on the classpath and
 * builds the argument of a debug line, {@code new File(codeSource.toURI())}, even when debug is
 * off. For the factory that feeds Actuator ({@code InProcessMetricReporterFactory}) inside a Spring
 * Boot executable jar the code source is a {@code jar:} URL (Boot's {@code jar:nested:}), that call
 * throws, and Flink logs "Error while loading MetricReporterFactory" with a stack trace at WARN,
 * although it has already registered the factory and the reporter works. While the cluster starts,
 * and only when the factory is not loaded from a plain file and the user has not set a level for
 * that logger, the logger is raised to ERROR, then reset.
 */
final class ReporterLookupLogging {

    static final String FLINK_LOGGER = "org.apache.flink.runtime.metrics.ReporterSetupBuilder";

    private ReporterLookupLogging() {}

    /** Quiets {@link #FLINK_LOGGER} until {@code close()} if our reporter factory is not loaded from a file. */
    static AutoCloseable quietWhileClusterStarts() {
        CodeSource source =
                InProcessMetricReporterFactory.class.getProtectionDomain().getCodeSource();
        return quietUnlessFile(
                source == null ? null : source.getLocation(),
                LoggingSystem.get(ReporterLookupLogging.class.getClassLoader()));
    }

    /** Quiets {@link #FLINK_LOGGER} until {@code close()} if {@code factoryLocation} is not a file. */
    static AutoCloseable quietUnlessFile(@Nullable URL factoryLocation, LoggingSystem logging) {
        if (factoryLocation == null || "file".equals(factoryLocation.getProtocol())) {
            return () -> {};
        }
        try {
            LoggerConfiguration current = logging.getLoggerConfiguration(FLINK_LOGGER);
            if (current != null && current.getConfiguredLevel() != null) {
                return () -> {}; // the user chose a level for it: theirs stands
            }
            logging.setLogLevel(FLINK_LOGGER, LogLevel.ERROR);
            return () -> logging.setLogLevel(FLINK_LOGGER, null);
        } catch (UnsupportedOperationException e) {
            return () -> {}; // a logging system without levels (logging.system=none): nothing to quiet
        }
    }
}
