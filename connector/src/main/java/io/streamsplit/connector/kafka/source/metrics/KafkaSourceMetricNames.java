package io.streamsplit.connector.kafka.source.metrics;

import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Every metric name a StreamSplit Kafka source registers, and the standard Flink source metrics it
 * keeps up to date. These names are public API: dashboards, the Spring Boot Actuator and the Flink
 * Kubernetes Operator's autoscaler read them.
 *
 * <p>Reader metrics live under the source operator's group as {@code KafkaSourceReader.<name>}, and
 * per partition as {@code KafkaSourceReader.topic.<topic>.partition.<n>.<name>} — the shape the
 * autoscaler matches to count a source's partitions. Enumerator metrics live under the operator
 * coordinator's group on the JobManager. Offsets not known yet read -1.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames;
 *
 * String lagMetric = KafkaSourceMetricNames.READER_GROUP + ".topic.orders.partition.0." + KafkaSourceMetricNames.LAG;
 * }</pre>
 */
@PublicEvolving
public final class KafkaSourceMetricNames {

    /** The reader's metric group under the source operator. */
    public static final String READER_GROUP = "KafkaSourceReader";
    /** Key of the per-topic group under {@link #READER_GROUP} (Flink variable {@code <topic>}). */
    public static final String TOPIC_GROUP = "topic";
    /** Key of the per-partition group under the topic group (Flink variable {@code <partition>}). */
    public static final String PARTITION_GROUP = "partition";

    /** Per partition: the next offset the reader emits. */
    public static final String CURRENT_OFFSET = "currentOffset";
    /** Per partition: the offset last committed to the consumer group on a checkpoint. */
    public static final String COMMITTED_OFFSET = "committedOffset";
    /** Per partition: the partition's end offset as last seen by the consumer. */
    public static final String LOG_END_OFFSET = "logEndOffset";
    /** Per partition: {@code logEndOffset - currentOffset}. */
    public static final String LAG = "lag";
    /** Per partition: where the reader started this split (assignment or restore). */
    public static final String STARTING_OFFSET = "startingOffset";
    /** Per partition: where a bounded source stops; -1 when unbounded. */
    public static final String STOPPING_OFFSET = "stoppingOffset";
    /** Per partition: 1 while the reader keeps the partition paused, else 0. */
    public static final String PAUSED = "paused";
    /** Per partition: 1 while this reader owns the split, 0 once it moved away or was removed. */
    public static final String ASSIGNED = "assigned";
    /**
     * Per partition: 1 once the reader found the partition gone from Kafka (its topic deleted, or shrunk) and
     * stopped fetching it, until the enumerator releases it (partition discovery) or the job restarts; else 0.
     */
    public static final String GONE = "gone";

    /** Reader: bad records skipped ({@code bad-record-policy: skip}). */
    public static final String RECORDS_SKIPPED = "numRecordsSkipped";
    /** Reader: bad records sent to the dead-letter stream. */
    public static final String RECORDS_DEAD_LETTERED = "numRecordsDeadLettered";
    /** Reader: offset commits that succeeded. */
    public static final String COMMITS_SUCCEEDED = "commitsSucceeded";
    /** Reader: offset commits that failed (retried on the next checkpoint). */
    public static final String COMMITS_FAILED = "commitsFailed";

    /** Reader: 1 while its operator has paused the source (control topic), else 0. */
    public static final String SOURCE_PAUSED = "sourcePaused";
    /** Reader: its share of the source's rate limit in records per second; 0 when unthrottled. */
    public static final String MAX_RECORDS_PER_SECOND = "maxRecordsPerSecond";

    /** Enumerator gauge: partitions handed to readers. */
    public static final String ASSIGNED_SPLITS = "assignedSplits";
    /** Enumerator gauge: splits waiting for their reader to register. */
    public static final String PENDING_SPLITS = "pendingSplits";
    /** Enumerator gauge (a string): the pending splits' ids, comma-separated, e.g. {@code orders-3,orders-4}. */
    public static final String PENDING_PARTITIONS = "pendingPartitions";
    /** Enumerator gauge: epoch milliseconds of the last successful partition discovery, -1 before the first. */
    public static final String LAST_DISCOVERY_TIME = "lastDiscoveryTime";

    /** Flink's standard operator counter of records read. */
    public static final String RECORDS_IN = "numRecordsIn";
    /** Flink's standard source gauge of records not read yet (our total lag); the autoscaler reads it. */
    public static final String PENDING_RECORDS = "pendingRecords";
    /** Flink's standard operator gauge of the last watermark emitted. */
    public static final String OUTPUT_WATERMARK = "currentOutputWatermark";

    /** The enumerator's gauges. */
    public static final Set<String> ENUMERATOR_METRICS =
            Set.of(ASSIGNED_SPLITS, PENDING_SPLITS, PENDING_PARTITIONS, LAST_DISCOVERY_TIME);

    /** Operator-level metrics outside {@link #READER_GROUP} that describe a source: Flink's, and the enumerator's. */
    public static final Set<String> OPERATOR_METRICS = Set.of(
            RECORDS_IN,
            PENDING_RECORDS,
            OUTPUT_WATERMARK,
            ASSIGNED_SPLITS,
            PENDING_SPLITS,
            PENDING_PARTITIONS,
            LAST_DISCOVERY_TIME);

    private KafkaSourceMetricNames() {}
}
