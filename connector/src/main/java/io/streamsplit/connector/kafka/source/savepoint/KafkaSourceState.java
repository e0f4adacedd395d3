package io.streamsplit.connector.kafka.source.savepoint;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.PublicEvolving;
import org.jspecify.annotations.Nullable;

/**
 * The state one Kafka source operator left in a checkpoint or savepoint: StreamSplit's source or
 * Flink's official {@code KafkaSource} (their formats are read alike).
 *
 * @param operatorId the operator's id, hex, as Flink's REST API and logs show it
 * @param uid the uid it was looked up by, or {@code null} when listed without one
 * @param enumeratorStateVersion the version of the enumerator's state (0 to 2: the official source up to
 *     4.0; 3: the official 5.0 or StreamSplit), or -1 when the savepoint holds none for it
 * @param partitions every partition the source knows, in topic and partition order
 */
@PublicEvolving
public record KafkaSourceState(
        String operatorId, @Nullable String uid, int enumeratorStateVersion, List<PartitionPosition> partitions) {

    /** The topics the state holds offsets or partitions of, sorted. */
    public Set<String> topics() {
        Set<String> topics = new TreeSet<>();
        partitions.forEach(position -> topics.add(position.topic()));
        return topics;
    }

    /** The same state, named by the uid it was found under. */
    KafkaSourceState withUid(String uid) {
        return new KafkaSourceState(operatorId, uid, enumeratorStateVersion, partitions);
    }
}
