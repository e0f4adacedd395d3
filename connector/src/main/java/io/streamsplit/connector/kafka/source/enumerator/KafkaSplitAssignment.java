package io.streamsplit.connector.kafka.source.enumerator;

import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;

/**
 * The deterministic partition → reader formula. For a given parallelism a partition always goes
 * to the same subtask, across restarts and across enumerators, so assignment can be predicted
 * (e.g. by the Actuator endpoint) without asking the job.
 *
 * <p>Each topic gets a start subtask derived from its name; its partitions follow round-robin
 * from there. Partitions of one topic spread evenly, and several small topics do not all pile
 * onto subtask 0.
 */
@Internal
public final class KafkaSplitAssignment {

    private KafkaSplitAssignment() {}

    /** The subtask index that reads {@code partition} when the source runs with {@code parallelism}. */
    public static int ownerOf(TopicPartition partition, int parallelism) {
        if (parallelism <= 0) {
            throw new IllegalArgumentException("parallelism is " + parallelism + "; expected >= 1");
        }
        int startIndex = ((partition.topic().hashCode() * 31) & 0x7FFFFFFF) % parallelism;
        return (startIndex + partition.partition()) % parallelism;
    }
}
