package io.streamsplit.connector.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** How the enumerator turns starting and stopping rules, and the official source's offset markers, into offsets. */
class KafkaOffsetsResolverTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private final InMemoryKafkaMetadata metadata =
            new InMemoryKafkaMetadata().topic("orders", 2).offsets(P0, 10, 100).offsets(P1, 20, 200);

    @Test
    void committedOffsetsWithoutACommitFollowTheResetStrategyPerPartition() throws Exception {
        metadata.committed(P0, 50);

        assertThat(KafkaOffsetsResolver.starting(
                        StartingOffsets.committed(OffsetResetStrategy.EARLIEST), List.of(P0, P1), metadata, "g"))
                .isEqualTo(Map.of(P0, 50L, P1, 20L));
        assertThat(KafkaOffsetsResolver.starting(
                        StartingOffsets.committed(OffsetResetStrategy.LATEST), List.of(P0, P1), metadata, "g"))
                .isEqualTo(Map.of(P0, 50L, P1, 200L));
        assertThatThrownBy(() -> KafkaOffsetsResolver.starting(
                        StartingOffsets.committed(OffsetResetStrategy.FAIL), List.of(P0, P1), metadata, "g"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Consumer group 'g' has no committed offset for [orders-1]")
                .hasMessageContaining("reset strategy is FAIL");
    }

    @Test
    void aTimestampWithoutARecordAtOrAfterItStartsAtTheEnd() throws Exception {
        // the in-memory cluster has no record at or after any time: every partition falls back to latest
        assertThat(KafkaOffsetsResolver.starting(StartingOffsets.timestamp(1_000), List.of(P0, P1), metadata, "g"))
                .isEqualTo(Map.of(P0, 100L, P1, 200L));
    }

    @Test
    void specificOffsetsFallBackForPartitionsTheyDoNotName() throws Exception {
        StartingOffsets specific = StartingOffsets.specific(Map.of(P0, 42L), StartingOffsets.latest());

        assertThat(KafkaOffsetsResolver.starting(specific, List.of(P0, P1), metadata, "g"))
                .isEqualTo(Map.of(P0, 42L, P1, 200L));
    }

    @Test
    void partitionsFoundAfterTheInitialDiscoveryStartAtTheirEarliestOffset() throws Exception {
        List<KafkaPartitionSplit> splits =
                KafkaOffsetsResolver.splits(Set.of(P0, P1), Set.of(P0), StartingOffsets.latest(), null, metadata, "g");

        assertThat(splits).containsExactlyInAnyOrder(new KafkaPartitionSplit(P0, 100), new KafkaPartitionSplit(P1, 20));
    }

    @Test
    void aBoundedSplitNeverStartsPastItsStop() throws Exception {
        metadata.committed(P0, 150); // committed beyond the stop: an empty split, not a backwards one
        metadata.committed(P1, 30);

        List<KafkaPartitionSplit> splits = KafkaOffsetsResolver.splits(
                Set.of(P0, P1),
                Set.of(P0, P1),
                StartingOffsets.committed(OffsetResetStrategy.EARLIEST),
                StoppingOffsets.specific(Map.of(P0, 120L)),
                metadata,
                "g");

        assertThat(splits)
                .as("P0 stops at its specific offset, P1 (not named) at its latest")
                .containsExactlyInAnyOrder(new KafkaPartitionSplit(P0, 120, 120), new KafkaPartitionSplit(P1, 30, 200));
    }

    @Test
    void officialOffsetMarkersBecomeOffsetsAndAMissingOneSaysWhy() throws Exception {
        metadata.committed(P1, 77);
        List<KafkaPartitionSplit> restored = List.of(
                new KafkaPartitionSplit(P0, KafkaPartitionSplit.EARLIEST_OFFSET, KafkaPartitionSplit.LATEST_OFFSET),
                new KafkaPartitionSplit(P1, KafkaPartitionSplit.COMMITTED_OFFSET),
                new KafkaPartitionSplit(new TopicPartition("orders", 5), 3));

        assertThat(KafkaOffsetsResolver.resolveMarkers(restored, metadata, "g"))
                .containsExactly(
                        new KafkaPartitionSplit(P0, 10, 100),
                        new KafkaPartitionSplit(P1, 77),
                        new KafkaPartitionSplit(new TopicPartition("orders", 5), 3));

        TopicPartition unknown = new TopicPartition("orders", 9);
        assertThatThrownBy(() -> KafkaOffsetsResolver.resolveMarkers(
                        List.of(new KafkaPartitionSplit(unknown, 0, KafkaPartitionSplit.COMMITTED_OFFSET)),
                        metadata,
                        "g"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No stopping offset for restored split")
                .hasMessageContaining("orders-9");
    }
}
