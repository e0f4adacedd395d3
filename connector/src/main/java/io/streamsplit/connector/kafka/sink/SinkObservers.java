package io.streamsplit.connector.kafka.sink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import org.apache.flink.annotation.Internal;
import org.jspecify.annotations.Nullable;

/**
 * Listeners in this JVM for the freshness each sink writer measures: with an embedded MiniCluster
 * the writers run in the application's JVM and feed the application's meters directly; on a remote
 * cluster no listener is registered on the TaskManagers and the writers report to Flink's metrics
 * only. The ids carry the registering application's own id, so two applications in one JVM never
 * see each other's records.
 */
@Internal
public final class SinkObservers {

    private static final Map<String, LongConsumer> LISTENERS = new ConcurrentHashMap<>();

    private SinkObservers() {}

    /** Sends the freshness (milliseconds) of each record the sink writers of {@code id} write to {@code listener}. */
    public static void register(String id, LongConsumer listener) {
        LISTENERS.put(id, listener);
    }

    /** Stops sending to the listener of {@code id}. */
    public static void unregister(String id) {
        LISTENERS.remove(id);
    }

    static @Nullable LongConsumer lookup(String id) {
        return LISTENERS.get(id);
    }
}
