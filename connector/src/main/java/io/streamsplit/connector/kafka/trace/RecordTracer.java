package io.streamsplit.connector.kafka.trace;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Internal;
import org.jspecify.annotations.Nullable;

/**
 * Spans per record, for an application whose sources and sinks run in its own JVM (embedded
 * MiniCluster): the Spring Boot starter registers one under the application's id when Micrometer
 * Tracing is on its classpath; sources and sinks of that application look it up by the id. On a
 * remote cluster nothing is registered on the TaskManagers, and records carry their trace headers
 * through unchanged.
 */
@Internal
public interface RecordTracer {

    /** The Flink configuration key that carries the application's id to its readers. */
    String APPLICATION_ID = "streamsplit.tracing.application-id";

    /** A span in progress. */
    interface RecordSpan {

        /** The span's context as headers: what to write downstream so the next hop is its child. */
        TraceHeaders context();

        /** Ends the span. */
        void end();
    }

    /**
     * A span for a record {@code source} read, child of {@code parent}; {@code null} when not sampled.
     * Called only for a {@link TraceHeaders#sampled() sampled} parent: {@link TraceContext} gives a record
     * that was not sampled upstream no span (the parent-based sampling of OpenTelemetry, Brave and Boot).
     */
    @Nullable
    RecordSpan receive(String source, TraceHeaders parent);

    /** A span for a record {@code sink} writes, child of a sampled {@code parent}; {@code null} when not sampled. */
    @Nullable
    RecordSpan send(String sink, TraceHeaders parent);

    /** The registered tracers, by application id. */
    final class Registry {

        private static final Map<String, RecordTracer> TRACERS = new ConcurrentHashMap<>();

        private Registry() {}

        /** Registers the tracer of application {@code id}. */
        public static void register(String id, RecordTracer tracer) {
            TRACERS.put(id, tracer);
        }

        /** Forgets the tracer of application {@code id}. */
        public static void unregister(String id) {
            TRACERS.remove(id);
        }

        /** The tracer of application {@code id}, or {@code null}. */
        public static @Nullable RecordTracer lookup(@Nullable String id) {
            return id == null ? null : TRACERS.get(id);
        }
    }
}
