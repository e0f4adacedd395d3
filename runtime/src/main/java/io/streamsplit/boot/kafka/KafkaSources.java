package io.streamsplit.boot.kafka;

import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.jspecify.annotations.Nullable;

/**
 * The Kafka sources an application configured under {@code streamsplit.kafka.sources.<name>}, as the job,
 * its pipelines and SQL ask for them: by their YAML name. Each answer applies the configuration's rules;
 * a name nobody configured fails, naming the configured ones.
 *
 * <pre>{@code
 * StreamSplitKafkaSource<?> orders = sources.create("orders");
 * String uid = sources.uid("orders");
 * }</pre>
 */
public interface KafkaSources {

    /** The property of the topic that carries commands to running sources (pause, resume, rewind), shared by all. */
    String CONTROL_TOPIC = "streamsplit.kafka.control-topic";

    /** {@code streamsplit.kafka.sources.<name>.}: where source {@code name}'s settings are, for messages. */
    static String prefix(String name) {
        return "streamsplit.kafka.sources." + name + ".";
    }

    /** Whether {@code streamsplit.kafka.sources.<name>} is configured. */
    boolean isConfigured(String name);

    /** A failure naming the configured sources, for a {@code name} that is not one of them. */
    RuntimeException notConfigured(String name);

    /** Source {@code name}, built from its configuration. */
    StreamSplitKafkaSource<?> create(String name);

    /** The operator uid of source {@code name}. */
    String uid(String name);

    /** The watermarks of source {@code name} (none unless it configures some). */
    <T> WatermarkStrategy<T> watermarks(String name);

    /** Whether source {@code name} configures watermarks, so that its records have an event time. */
    boolean hasEventTime(String name);

    /** The sources configured in YAML, by name, in their configured order. */
    Set<String> names();

    /** Where configured source {@code name} reads; a failure naming the configured ones for another name. */
    Reading reading(String name);

    /** The Kafka of every source and sink that names none of its own ({@code streamsplit.kafka.bootstrap-servers}). */
    String sharedBootstrapServers();

    /** Whether the shared Kafka is the in-JVM dev broker, whose data goes with the application. */
    boolean sharedIsDevBroker();

    /** The columns source {@code name} declares for SQL (name → SQL type); empty when it declares none. */
    Map<String, String> columns(String name);

    /**
     * Where a configured source reads.
     *
     * @param bootstrapServers its Kafka, resolved (its own servers, else the shared ones)
     * @param bootstrapServersProperty the property that set them, for messages
     * @param topics the topics it reads (empty when it reads a pattern)
     * @param pattern the pattern of the topics it reads, or {@code null}
     * @param deadLetterTopic the topic it sends records it cannot read to, or {@code null}
     */
    record Reading(
            String bootstrapServers,
            String bootstrapServersProperty,
            List<String> topics,
            @Nullable String pattern,
            @Nullable String deadLetterTopic) {}
}
