package io.streamsplit.connector.kafka.source.reader;

import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.ASSIGNED;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.COMMITS_FAILED;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.COMMITS_SUCCEEDED;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.COMMITTED_OFFSET;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.CURRENT_OFFSET;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.GONE;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.LAG;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.LOG_END_OFFSET;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.MAX_RECORDS_PER_SECOND;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.PARTITION_GROUP;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.PAUSED;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.READER_GROUP;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.RECORDS_DEAD_LETTERED;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.RECORDS_SKIPPED;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.SOURCE_PAUSED;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.STARTING_OFFSET;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.STOPPING_OFFSET;
import static io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames.TOPIC_GROUP;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitState;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.kafka.common.TopicPartition;

/**
 * Registers and updates the reader's metrics; their names and meaning are in
 * {@link io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames}.
 *
 * <p>Under the reader's operator group: {@code KafkaSourceReader.numRecordsSkipped},
 * {@code .numRecordsDeadLettered}, {@code .commitsSucceeded}, {@code .commitsFailed},
 * {@code .sourcePaused}, {@code .maxRecordsPerSecond} (this reader's share, 0: unthrottled), and per
 * partition {@code KafkaSourceReader.topic.<topic>.partition.<n>.currentOffset},
 * {@code .committedOffset}, {@code .logEndOffset}, {@code .lag}, {@code .startingOffset},
 * {@code .stoppingOffset} (-1 when unbounded), {@code .paused} (1 while paused for watermark
 * alignment), {@code .assigned} (1 while this reader owns the split) and {@code .gone} (1 once the partition
 * was found gone from Kafka). Flink's standard
 * {@code numRecordsIn}, {@code numRecordsInErrors} and {@code pendingRecords} (total lag) are
 * maintained too. Offsets that are not known yet read -1.
 */
@Internal
public final class KafkaSourceReaderMetrics {

    private final MetricGroup group;
    private final Counter recordsSkipped;
    private final Counter recordsDeadLettered;
    private final Counter recordsInErrors;
    private final Counter commitsSucceeded;
    private final Counter commitsFailed;
    private final Map<TopicPartition, PartitionMetrics> partitions = new ConcurrentHashMap<>();

    public KafkaSourceReaderMetrics(SourceReaderMetricGroup readerGroup) {
        this.group = readerGroup.addGroup(READER_GROUP);
        this.recordsSkipped = group.counter(RECORDS_SKIPPED);
        this.recordsDeadLettered = group.counter(RECORDS_DEAD_LETTERED);
        this.recordsInErrors = readerGroup.getNumRecordsInErrorsCounter();
        this.commitsSucceeded = group.counter(COMMITS_SUCCEEDED);
        this.commitsFailed = group.counter(COMMITS_FAILED);
        readerGroup.setPendingRecordsGauge(this::totalLag);
    }

    /** Reports the reader's control: its share of the rate limit, and whether the source is paused. */
    void trackControl(DoubleSupplier ratePerSecond, BooleanSupplier sourcePaused) {
        group.gauge(MAX_RECORDS_PER_SECOND, ratePerSecond::getAsDouble);
        group.gauge(SOURCE_PAUSED, () -> sourcePaused.getAsBoolean() ? 1 : 0);
    }

    /** Starts reporting a split's progress (again, if the partition was read before). */
    void track(KafkaPartitionSplitState state) {
        TopicPartition tp = state.split().topicPartition();
        PartitionMetrics metrics = partitions.computeIfAbsent(tp, this::register);
        metrics.state = state;
        metrics.active = true;
        metrics.paused = false;
        metrics.gone = false;
    }

    private PartitionMetrics register(TopicPartition tp) {
        PartitionMetrics metrics = new PartitionMetrics();
        MetricGroup partitionGroup =
                group.addGroup(TOPIC_GROUP, tp.topic()).addGroup(PARTITION_GROUP, String.valueOf(tp.partition()));
        partitionGroup.gauge(CURRENT_OFFSET, metrics::currentOffset);
        partitionGroup.gauge(COMMITTED_OFFSET, () -> metrics.committedOffset);
        partitionGroup.gauge(LOG_END_OFFSET, () -> metrics.logEndOffset);
        partitionGroup.gauge(LAG, metrics::lag);
        partitionGroup.gauge(STARTING_OFFSET, metrics::startingOffset);
        partitionGroup.gauge(STOPPING_OFFSET, metrics::stoppingOffset);
        partitionGroup.gauge(PAUSED, () -> metrics.paused ? 1 : 0);
        partitionGroup.gauge(ASSIGNED, () -> metrics.active ? 1 : 0);
        partitionGroup.gauge(GONE, () -> metrics.gone ? 1 : 0);
        return metrics;
    }

    /** The partition's log end offset as last seen by the consumer (fetcher thread). */
    void recordLogEndOffset(TopicPartition tp, long logEndOffset) {
        PartitionMetrics metrics = partitions.get(tp);
        if (metrics != null) {
            metrics.logEndOffset = logEndOffset;
        }
    }

    /** The reader found {@code tp} gone from Kafka and stopped fetching it. */
    void recordGone(TopicPartition tp) {
        PartitionMetrics metrics = partitions.get(tp);
        if (metrics != null) {
            metrics.gone = true;
        }
    }

    /** The consumer paused or resumed fetching a partition (watermark alignment). */
    void recordPaused(TopicPartition tp, boolean paused) {
        PartitionMetrics metrics = partitions.get(tp);
        if (metrics != null) {
            metrics.paused = paused;
        }
    }

    void recordCommitted(Map<TopicPartition, Long> offsets) {
        commitsSucceeded.inc();
        offsets.forEach((tp, offset) -> {
            PartitionMetrics metrics = partitions.get(tp);
            if (metrics != null) {
                metrics.committedOffset = offset;
            }
        });
    }

    void recordCommitFailed() {
        commitsFailed.inc();
    }

    void recordSkipped() {
        recordsSkipped.inc();
        recordsInErrors.inc();
    }

    void recordDeadLettered() {
        recordsDeadLettered.inc();
        recordsInErrors.inc();
    }

    /** A split left this reader (finished or removed): it no longer adds to the pending records. */
    void untrack(TopicPartition tp) {
        PartitionMetrics metrics = partitions.get(tp);
        if (metrics != null) {
            metrics.active = false;
            metrics.paused = false;
            metrics.gone = false;
        }
    }

    private long totalLag() {
        long total = 0;
        for (PartitionMetrics metrics : partitions.values()) {
            if (metrics.active) {
                total += Math.max(0, metrics.lag());
            }
        }
        return total;
    }

    private static final class PartitionMetrics {
        @SuppressWarnings("NullAway.Init") // set when the partition's split is added, before it is read
        volatile KafkaPartitionSplitState state;

        volatile long committedOffset = -1;
        volatile long logEndOffset = -1;
        volatile boolean active = true;
        volatile boolean paused;
        volatile boolean gone;

        long startingOffset() {
            KafkaPartitionSplitState s = state;
            return s == null ? -1 : s.split().startingOffset();
        }

        long stoppingOffset() {
            KafkaPartitionSplitState s = state;
            return s == null || !s.split().isBounded() ? -1 : s.split().stoppingOffset();
        }

        long currentOffset() {
            KafkaPartitionSplitState s = state;
            return s == null ? -1 : s.currentOffset();
        }

        long lag() {
            long end = logEndOffset;
            long current = currentOffset();
            return end < 0 || current < 0 ? -1 : Math.max(0, end - current);
        }
    }
}
