package io.streamsplit.connector.kafka.sink;

import io.streamsplit.connector.kafka.trace.RecordTracer;
import io.streamsplit.connector.kafka.trace.TraceCarrier;
import io.streamsplit.connector.kafka.trace.TraceContext;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.LongConsumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;

/**
 * A sink's serializer that also writes the trace context — the element's own when it is a {@link
 * TraceCarrier}, else {@link TraceContext#current() the input record's} in a chain from the source —
 * unless the serializer already set a {@code traceparent}, and measures freshness: for each record written, now minus the
 * timestamp of the element (for a record-to-record pipeline, the input Kafka record's timestamp;
 * after an event-time window, the window's end minus one millisecond). Kept in Flink's histogram
 * {@value #METRIC} of the sink writer's metric group (the last 1,024 values) and, when a
 * {@link SinkObservers listener} is registered in this JVM under the id, handed to it. Elements
 * without a timestamp are not measured.
 *
 * <pre>{@code
 * KafkaRecordSerializationSchema<Order> measured =
 *         new ObservedSerializationSchema<>(serializer, "app-1", "orders-out");
 * }</pre>
 *
 * @param <T> the element type
 */
@Internal
public final class ObservedSerializationSchema<T> extends DelegatingSerializationSchema<T> {

    /** The histogram's name in the sink writer's metric group. */
    public static final String METRIC = "streamsplitFreshnessMs";

    private static final long serialVersionUID = 1L;
    private static final int WINDOW = 1_024;
    private static final Map<MetricGroup, Histogram> HISTOGRAMS = new WeakHashMap<>();

    private final String applicationId;
    private final String sinkName;
    private transient @Nullable Histogram histogram;
    private transient @Nullable LongConsumer listener;
    private transient @Nullable RecordTracer tracer;

    /**
     * Observes the records {@code serializer} writes for sink {@code sinkName} of application {@code
     * applicationId} (the id its freshness listener and tracer, if any, are registered under).
     */
    public ObservedSerializationSchema(
            KafkaRecordSerializationSchema<T> serializer, String applicationId, String sinkName) {
        super(serializer);
        this.applicationId = applicationId;
        this.sinkName = sinkName;
    }

    /** The id a freshness listener of sink {@code sinkName} of application {@code applicationId} registers under. */
    public static String observerId(String applicationId, String sinkName) {
        return applicationId + "/" + sinkName;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) throws Exception {
        serializer.open(context, sinkContext);
        histogram = histogram(context.getMetricGroup());
        listener = SinkObservers.lookup(observerId(applicationId, sinkName));
        tracer = RecordTracer.Registry.lookup(applicationId);
    }

    /**
     * The writer's histogram, registered once per metric group: an exactly-once writer opens its
     * serializer again (and Flink warns of a name collision on a second registration).
     */
    private static Histogram histogram(MetricGroup group) {
        synchronized (HISTOGRAMS) {
            return HISTOGRAMS.computeIfAbsent(
                    group, g -> g.histogram(METRIC, new DescriptiveStatisticsHistogram(WINDOW)));
        }
    }

    @Override
    public @Nullable ProducerRecord<byte[], byte[]> serialize(
            T element, KafkaSinkContext context, @Nullable Long timestamp) {
        ProducerRecord<byte[], byte[]> record = serializer.serialize(element, context, timestamp);
        if (record == null) {
            return null;
        }
        if (element instanceof TraceCarrier carrier) {
            TraceContext.addTo(record.headers(), carrier.traceHeaders(), tracer, sinkName);
        } else {
            TraceContext.addTo(record.headers(), tracer, sinkName);
        }
        if (timestamp != null) {
            long freshness = Math.max(0, System.currentTimeMillis() - timestamp);
            Histogram measured = histogram;
            if (measured != null) {
                measured.update(freshness);
            }
            LongConsumer observer = listener;
            if (observer != null) {
                observer.accept(freshness);
            }
        }
        return record;
    }
}
