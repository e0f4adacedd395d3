package io.streamsplit.boot.kafka;

import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;

/**
 * A Kafka {@link Admin} client for the start-up's checks whose close waits a few seconds at most: {@code
 * Admin.close()} waits without limit for calls still pending, and against a listener that accepts connections but
 * never answers (a hung broker) a start-up would hang there after its own timeout had already said so.
 *
 * <pre>{@code
 * try (BoundedAdmin bounded = BoundedAdmin.create(settings)) {
 *     bounded.admin().describeCluster();
 * }
 * }</pre>
 *
 * @param admin the client
 */
public record BoundedAdmin(Admin admin) implements AutoCloseable {

    private static final Duration CLOSE = Duration.ofSeconds(5);

    /** A client of {@code settings}. */
    public static BoundedAdmin create(Properties settings) {
        return new BoundedAdmin(Admin.create(settings));
    }

    @Override
    public void close() {
        admin.close(CLOSE);
    }
}
