package io.streamsplit.boot.flink.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;

/**
 * Flink's misleading "Error while loading MetricReporterFactory" warning is held back only while
 * the cluster starts from an executable jar, and never against a level the user set.
 */
class ReporterLookupLoggingTest {

    private final LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
    // the logger exists once Flink's class has logged through it; here, create it
    private final org.slf4j.Logger flinkLogger = org.slf4j.LoggerFactory.getLogger(ReporterLookupLogging.FLINK_LOGGER);

    @AfterEach
    void resetLevel() {
        logging.setLogLevel(ReporterLookupLogging.FLINK_LOGGER, null);
    }

    @Test
    void executableJarQuietsTheLoggerUntilClosed() throws Exception {
        URL nested = URI.create("jar:file:/srv/app.jar!/BOOT-INF/lib/streamsplit-autoconfigure.jar")
                .toURL();
        LogLevel before = effective();
        try (AutoCloseable quiet = ReporterLookupLogging.quietUnlessFile(nested, logging)) {
            assertThat(effective()).isEqualTo(LogLevel.ERROR);
        }
        assertThat(effective()).isEqualTo(before);
        assertThat(logging.getLoggerConfiguration(ReporterLookupLogging.FLINK_LOGGER)
                        .getConfiguredLevel())
                .isNull();
    }

    @Test
    void plainFileLeavesTheLoggerAlone() throws Exception {
        URL file = URI.create("file:/srv/lib/streamsplit-autoconfigure.jar").toURL();
        LogLevel before = effective();
        try (AutoCloseable quiet = ReporterLookupLogging.quietUnlessFile(file, logging)) {
            assertThat(effective()).isEqualTo(before).isNotEqualTo(LogLevel.ERROR);
        }
    }

    @Test
    void levelTheUserSetStands() throws Exception {
        logging.setLogLevel(ReporterLookupLogging.FLINK_LOGGER, LogLevel.DEBUG);
        URL nested = URI.create("jar:file:/srv/app.jar!/BOOT-INF/lib/streamsplit-autoconfigure.jar")
                .toURL();
        try (AutoCloseable quiet = ReporterLookupLogging.quietUnlessFile(nested, logging)) {
            assertThat(effective()).isEqualTo(LogLevel.DEBUG);
        }
        assertThat(effective()).isEqualTo(LogLevel.DEBUG);
    }

    private LogLevel effective() {
        return logging.getLoggerConfiguration(ReporterLookupLogging.FLINK_LOGGER)
                .getEffectiveLevel();
    }
}
