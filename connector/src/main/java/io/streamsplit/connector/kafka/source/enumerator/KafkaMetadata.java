package io.streamsplit.connector.kafka.source.enumerator;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;

/**
 * What the enumerator asks the Kafka cluster: which topics and partitions exist and where their
 * offsets are. {@link AdminKafkaMetadata} answers through Kafka's Admin client; tests and the
 * enumerator benchmark answer from memory, without a broker.
 *
 * <p>Calls run on the enumerator's worker thread (never the coordinator thread) and may block.
 */
@Internal
public interface KafkaMetadata extends AutoCloseable {

    /** Names of all non-internal topics. */
    Set<String> listTopics() throws Exception;

    /** Partition count per topic; topics that do not exist are absent from the result. */
    Map<String, Integer> partitionCounts(Collection<String> topics) throws Exception;

    /** The earliest available offset of each partition. */
    Map<TopicPartition, Long> earliestOffsets(Collection<TopicPartition> partitions) throws Exception;

    /**
     * The offset after the last readable record of each partition (the log end offset, or the
     * last stable offset for {@code read_committed} consumers).
     */
    Map<TopicPartition, Long> latestOffsets(Collection<TopicPartition> partitions) throws Exception;

    /**
     * The earliest offset whose record timestamp is {@code >= timestampMillis}; partitions with no
     * such record are absent from the result.
     */
    Map<TopicPartition, Long> offsetsForTimestamp(Collection<TopicPartition> partitions, long timestampMillis)
            throws Exception;

    /** Offsets committed by {@code groupId}; partitions without a commit are absent from the result. */
    Map<TopicPartition, Long> committedOffsets(String groupId, Collection<TopicPartition> partitions) throws Exception;

    @Override
    void close();
}
