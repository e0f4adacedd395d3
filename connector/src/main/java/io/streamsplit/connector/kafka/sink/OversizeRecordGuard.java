package io.streamsplit.connector.kafka.sink;

import java.util.Map;
import java.util.Properties;
import java.util.WeakHashMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sink's serializer that leaves out records the producer would refuse as larger than its {@code
 * max.request.size}: the producer fails the job at such a record, and again at it after every restart. It
 * measures a record as the producer does (Kafka's upper bound of the record's size in a batch), counts what it
 * leaves out in the writer's counter {@value #METRIC}, and says so in one WARN at the first and then at most once
 * a minute, naming the sink, the topic, the size and the limit. A record the broker refuses as larger than the
 * topic's {@code max.message.bytes} is not caught here: the broker answers after the send.
 *
 * <pre>{@code
 * KafkaRecordSerializationSchema<Order> guarded = new OversizeRecordGuard<>(serializer, "orders-out", producer);
 * }</pre>
 *
 * @param <T> the element type
 */
@Internal
public final class OversizeRecordGuard<T> extends DelegatingSerializationSchema<T> {

    /** The counter's name in the sink writer's metric group. */
    public static final String METRIC = "numRecordsSkippedTooLarge";

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(OversizeRecordGuard.class);
    private static final long WARN_EVERY_MILLIS = 60_000;
    private static final Map<MetricGroup, Counter> COUNTERS = new WeakHashMap<>();

    private final String sinkName;
    private final int maxRequestSize;
    private final CompressionType compression;
    private transient @Nullable Counter skipped;
    private transient long lastWarning;
    private transient long skippedSinceWarning;

    /**
     * Guards the records {@code serializer} writes for sink {@code sinkName} with {@code producer}'s
     * {@code max.request.size} (Kafka's default, 1 MB, when it sets none) and {@code compression.type}.
     */
    public OversizeRecordGuard(KafkaRecordSerializationSchema<T> serializer, String sinkName, Properties producer) {
        super(serializer);
        this.sinkName = sinkName;
        this.maxRequestSize = Integer.parseInt(producer.getProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "1048576"));
        this.compression =
                CompressionType.forName(producer.getProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none"));
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) throws Exception {
        serializer.open(context, sinkContext);
        skipped = counter(context.getMetricGroup());
        lastWarning = 0;
    }

    /** The writer's counter, registered once per metric group: an exactly-once writer opens its serializer again. */
    private static Counter counter(MetricGroup group) {
        synchronized (COUNTERS) {
            return COUNTERS.computeIfAbsent(group, g -> g.counter(METRIC));
        }
    }

    @Override
    public @Nullable ProducerRecord<byte[], byte[]> serialize(
            T element, KafkaSinkContext context, @Nullable Long timestamp) {
        ProducerRecord<byte[], byte[]> record = serializer.serialize(element, context, timestamp);
        if (record == null) {
            return null;
        }
        int size = AbstractRecords.estimateSizeInBytesUpperBound(
                RecordBatch.CURRENT_MAGIC_VALUE,
                compression,
                record.key(),
                record.value(),
                record.headers().toArray());
        if (size <= maxRequestSize) {
            return record;
        }
        Counter counter = skipped;
        if (counter != null) {
            counter.inc();
        }
        skippedSinceWarning++;
        long now = System.currentTimeMillis();
        if (now - lastWarning >= WARN_EVERY_MILLIS) {
            LOG.warn(
                    "Sink '{}' left out {} record(s) for topic '{}' larger than the producer's max.request.size ({}"
                            + " bytes; this one {} bytes), as its oversize-record-policy 'skip' says; they are counted"
                            + " in {}. Raise max.request.size (and the topic's max.message.bytes) to write them",
                    sinkName,
                    skippedSinceWarning,
                    record.topic(),
                    maxRequestSize,
                    size,
                    METRIC);
            lastWarning = now;
            skippedSinceWarning = 0;
        }
        return null;
    }
}
