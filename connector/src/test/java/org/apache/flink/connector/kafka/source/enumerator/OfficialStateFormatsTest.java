package org.apache.flink.connector.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorState;
import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorStateSerializer;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.connector.base.source.utils.SerdeUtils;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Every state format Flink's official {@code KafkaSource} wrote, produced here by the official
 * connector's own serializers (flink-connector-kafka 5.0, a test dependency; this test lives in its
 * package to reach the writers of its older versions), read by ours; and ours read by the official
 * one (the way back). Version 2 is what 3.1 to 4.0.x write: 4.0.1's {@code serialize} is the same
 * code as 5.0's {@code serializeV2}. The hex constants pin the official layouts: if a new official
 * release writes other bytes, this test says so before a user's savepoint does.
 */
class OfficialStateFormatsTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final TopicPartition ORDERS_2 = new TopicPartition("orders", 2);

    /** Official split version 0 of orders-1 starting at its EARLIEST marker, unbounded. */
    static final String OFFICIAL_SPLIT_EARLIEST =
            "00066f7264657273" + "00000001" + "fffffffffffffffe" + "8000000000000000";

    private final KafkaEnumeratorStateSerializer ours = new KafkaEnumeratorStateSerializer();
    private final KafkaSourceEnumStateSerializer official = new KafkaSourceEnumStateSerializer();

    @Test
    void splitVersion0WithOffsetsAndMarkers() throws Exception {
        org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitSerializer officialSplits =
                new org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitSerializer();
        byte[] earliest =
                officialSplits.serialize(new KafkaPartitionSplit(ORDERS_1, KafkaPartitionSplit.EARLIEST_OFFSET));
        assertThat(HexFormat.of().formatHex(earliest)).isEqualTo(OFFICIAL_SPLIT_EARLIEST);
        assertThat(officialSplits.getVersion()).isZero();

        KafkaPartitionSplitSerializer splits = new KafkaPartitionSplitSerializer();
        assertThat(splits.deserialize(0, earliest))
                .isEqualTo(new io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit(
                        ORDERS_1, io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit.EARLIEST_OFFSET));
        byte[] bounded = officialSplits.serialize(new KafkaPartitionSplit(ORDERS_2, 17, 40));
        assertThat(splits.deserialize(0, bounded))
                .isEqualTo(new io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit(ORDERS_2, 17, 40));
        byte[] latestToCommitted = officialSplits.serialize(new KafkaPartitionSplit(
                ORDERS_0, KafkaPartitionSplit.LATEST_OFFSET, KafkaPartitionSplit.COMMITTED_OFFSET));
        assertThat(splits.deserialize(0, latestToCommitted).hasOffsetMarkers()).isTrue();

        // the way back: the official serializer reads ours whatever version number it carries
        byte[] ourSplit =
                splits.serialize(new io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit(ORDERS_2, 17));
        KafkaPartitionSplit back = officialSplits.deserialize(splits.getVersion(), ourSplit);
        assertThat(back.getTopicPartition()).isEqualTo(ORDERS_2);
        assertThat(back.getStartingOffset()).isEqualTo(17);
        assertThat(back.getStoppingOffset()).isEmpty();
    }

    @Test
    void enumeratorVersion0IsEveryPartitionAssigned() throws Exception {
        byte[] v0 = SerdeUtils.serializeSplitAssignments(
                Map.of(
                        0,
                        Set.of(new KafkaPartitionSplit(ORDERS_0, 5)),
                        1,
                        Set.of(new KafkaPartitionSplit(ORDERS_1, 9))),
                new org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitSerializer());
        KafkaEnumeratorState state = ours.deserialize(0, v0);
        assertThat(state.assignedPartitions()).containsExactlyInAnyOrder(ORDERS_0, ORDERS_1);
        assertThat(state.pendingSplits()).isEmpty();
        assertThat(state.unresolvedPartitions()).isEmpty();
        assertThat(state.initialDiscoveryFinished()).isTrue();
    }

    @Test
    void enumeratorVersion1OfTheOfficialSourceIsTellableFromOurs() throws Exception {
        byte[] v1 = KafkaSourceEnumStateSerializer.serializeV1(
                List.of(new KafkaPartitionSplit(ORDERS_0, 5), new KafkaPartitionSplit(ORDERS_2, 7)));
        assertThat(HexFormat.of().formatHex(v1))
                .isEqualTo("00000002" + "00066f72646572730000000" + "0" + "00066f726465727300000002");
        KafkaEnumeratorState state = ours.deserialize(1, v1);
        assertThat(state.assignedPartitions()).containsExactly(ORDERS_0, ORDERS_2);
        assertThat(state.initialDiscoveryFinished()).isTrue();
        assertThat(ours.deserialize(1, KafkaSourceEnumStateSerializer.serializeV1(List.of())))
                .isEqualTo(new KafkaEnumeratorState(List.of(), List.of(), true));
    }

    @Test
    void enumeratorVersion2UnassignedPartitionsStartFromTheStartingOffsets() throws Exception {
        byte[] v2 = KafkaSourceEnumStateSerializer.serializeV2(
                List.of(
                        new SplitAndAssignmentStatus(new KafkaPartitionSplit(ORDERS_0, 0), AssignmentStatus.ASSIGNED),
                        new SplitAndAssignmentStatus(
                                new KafkaPartitionSplit(ORDERS_1, 0), AssignmentStatus.UNASSIGNED)),
                true);
        assertThat(HexFormat.of().formatHex(v2))
                .isEqualTo("00000002" + "00066f7264657273" + "00000000" + "00000000" + "00066f7264657273" + "00000001"
                        + "00000001" + "01");
        KafkaEnumeratorState state = ours.deserialize(2, v2);
        assertThat(state.assignedPartitions()).containsExactly(ORDERS_0);
        assertThat(state.unresolvedPartitions()).containsExactly(ORDERS_1);
        assertThat(state.pendingSplits()).isEmpty();
        assertThat(state.initialDiscoveryFinished()).isTrue();
    }

    @Test
    void enumeratorVersion3SplitsWithOffsetsMarkersAndMigratedOnes() throws Exception {
        KafkaSourceEnumState officialState = new KafkaSourceEnumState(
                Set.of(
                        new SplitAndAssignmentStatus(new KafkaPartitionSplit(ORDERS_0, 42), AssignmentStatus.ASSIGNED),
                        new SplitAndAssignmentStatus(
                                new KafkaPartitionSplit(ORDERS_1, KafkaPartitionSplit.EARLIEST_OFFSET),
                                AssignmentStatus.UNASSIGNED),
                        new SplitAndAssignmentStatus(
                                new KafkaPartitionSplit(ORDERS_2, KafkaPartitionSplit.MIGRATED),
                                AssignmentStatus.UNASSIGNED),
                        new SplitAndAssignmentStatus(
                                new KafkaPartitionSplit(new TopicPartition("returns", 0), 8, 20),
                                AssignmentStatus.UNASSIGNED)),
                false);
        assertThat(official.getVersion()).isEqualTo(3);
        KafkaEnumeratorState state = ours.deserialize(3, official.serialize(officialState));
        assertThat(state.assignedPartitions()).containsExactly(ORDERS_0);
        assertThat(state.pendingSplits())
                .containsExactlyInAnyOrder(
                        new io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit(
                                ORDERS_1,
                                io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit.EARLIEST_OFFSET),
                        new io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit(
                                new TopicPartition("returns", 0), 8, 20));
        assertThat(state.unresolvedPartitions()).containsExactly(ORDERS_2);
        assertThat(state.initialDiscoveryFinished()).isFalse();
    }

    @Test
    void theOfficialSourceReadsOurStateTheWayItWouldReadItsOwn() throws Exception {
        KafkaEnumeratorState state = new KafkaEnumeratorState(
                List.of(ORDERS_0),
                List.of(new io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit(ORDERS_1, 11)),
                List.of(ORDERS_2),
                true);
        assertThat(ours.getVersion()).isEqualTo(official.getVersion());
        KafkaSourceEnumState back = official.deserialize(ours.getVersion(), ours.serialize(state));
        assertThat(back.initialDiscoveryFinished()).isTrue();
        assertThat(back.assignedSplits())
                .extracting(KafkaPartitionSplit::getTopicPartition)
                .containsExactly(ORDERS_0);
        assertThat(back.unassignedSplits())
                .extracting(KafkaPartitionSplit::getTopicPartition, KafkaPartitionSplit::getStartingOffset)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(ORDERS_1, 11L),
                        org.assertj.core.groups.Tuple.tuple(ORDERS_2, KafkaPartitionSplit.MIGRATED));
        // and what the official source writes from it, we read back as it was
        assertThat(ours.deserialize(3, official.serialize(back))).isEqualTo(state);
    }
}
