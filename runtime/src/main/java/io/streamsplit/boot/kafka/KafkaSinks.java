package io.streamsplit.boot.kafka;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.jspecify.annotations.Nullable;

/**
 * The Kafka sinks an application configured under {@code streamsplit.kafka.sinks.<name>}, and the sinks of its
 * sources' dead-letter topics, as the job and its pipelines ask for them: by their YAML name.
 *
 * <pre>{@code
 * stream.sinkTo(sinks.create("totals", stream.getType())).uid(sinks.uid("totals"));
 * }</pre>
 */
public interface KafkaSinks {

    /** The sink {@code name} for a stream of {@code elementType}. */
    <T> Sink<T> create(String name, @Nullable TypeInformation<T> elementType);

    /** The operator uid of sink {@code name}. */
    String uid(String name);

    /** The sink for the dead letters of source {@code sourceName}. */
    Sink<DeadLetterRecord> deadLetters(String sourceName);

    /**
     * The sink for the dead letters of pipeline step {@code step}, to {@code topic}: with the strongest guarantee
     * among the configured sinks (in the checkpoint's transaction when one is exactly-once).
     */
    Sink<DeadLetterRecord> stepDeadLetters(String step, String topic);

    /** The configured sinks by name, in their configured order. */
    Map<String, Configured> configured();

    /**
     * A configured sink, as operators and SQL see it.
     *
     * @param topic the topic it writes, {@code null} when a topic selector bean chooses per record
     * @param deliveryGuarantee none, at-least-once or exactly-once
     * @param key the field its records are keyed by, or {@code null}
     * @param format the built-in format it writes, {@code null} when a serializer bean writes
     */
    record Configured(
            @Nullable String topic,
            DeliveryGuarantee deliveryGuarantee,
            @Nullable String key,
            @Nullable ValueFormat format) {}
}
