package io.streamsplit.boot.autoconfigure;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Once per test JVM (registered in {@code META-INF/services}; the test kit's module, which uses this
 * module's test jar, gets it too): awaitility polls every 250 ms unless a test asks for another
 * interval. Most of this module's waits read a whole Kafka topic or ask the Flink REST API on every
 * poll; at awaitility's 100 ms default, three test JVMs polling on two cores spent CPU the jobs under
 * test needed, and a condition seen 150 ms later changes no outcome.
 */
public final class AwaitilityDefaults implements LauncherSessionListener {

    static final Duration POLL_INTERVAL = Duration.ofMillis(250);

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        Awaitility.setDefaultPollInterval(POLL_INTERVAL);
    }
}
