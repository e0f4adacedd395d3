package io.streamsplit.boot.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Contexts of the auto-configuration that have no Kafka to talk to, for tests of what it builds: the startup check
 * (tested against a real broker elsewhere) is off, no dev-mode broker starts, and the shared bootstrap servers
 * are an address nothing answers at.
 */
public final class OfflineContexts {

    /** The shared bootstrap servers of these contexts. */
    public static final String BOOTSTRAP_SERVERS = "shared:9092";

    private OfflineContexts() {}

    /** A runner of the whole auto-configuration, offline. */
    public static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
                .withPropertyValues(
                        "streamsplit.kafka.startup-check.mode=off",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + BOOTSTRAP_SERVERS);
    }
}
