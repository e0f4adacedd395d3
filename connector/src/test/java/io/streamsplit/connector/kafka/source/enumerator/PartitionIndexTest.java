package io.streamsplit.connector.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The enumerator's partition sets answer as any {@code Set<TopicPartition>} would. */
class PartitionIndexTest {

    @Test
    void answersAsAHashSetThroughRandomChanges() {
        Random random = new Random(42);
        PartitionIndex index = new PartitionIndex();
        Set<TopicPartition> expected = new HashSet<>();
        for (int step = 0; step < 20_000; step++) {
            TopicPartition tp = new TopicPartition("orders-" + random.nextInt(12), random.nextInt(70));
            PartitionIndex other = randomIndex(random);
            switch (random.nextInt(7)) {
                case 0, 1 -> assertThat(index.add(tp)).isEqualTo(expected.add(tp));
                case 2 -> assertThat(index.remove(tp)).isEqualTo(expected.remove(tp));
                case 3 -> assertThat(index.addAll(other)).isEqualTo(expected.addAll(other));
                case 4 -> assertThat(index.removeAll(other)).isEqualTo(expected.removeAll(Set.copyOf(other)));
                case 5 -> assertThat(index.removeAll(List.copyOf(other))).isEqualTo(expected.removeAll(other));
                default -> {
                    if (random.nextInt(10) == 0) {
                        assertThat(index.retainAll(other)).isEqualTo(expected.retainAll(Set.copyOf(other)));
                    }
                }
            }
            assertThat(index.size()).isEqualTo(expected.size());
            assertThat(index.contains(tp)).isEqualTo(expected.contains(tp));
        }
        assertThat(index).isEqualTo(expected);
        assertThat(Set.copyOf(index)).as("iteration yields each member once").isEqualTo(expected);
        assertThat(index.hashCode()).isEqualTo(expected.hashCode());
    }

    @Test
    void iteratesTopicsInTheOrderAddedAndPartitionsAscending() {
        PartitionIndex index = new PartitionIndex(
                List.of(tp("payments", 3), tp("orders", 2), tp("payments", 0), tp("orders", 10), tp("orders", 0)));

        assertThat(index)
                .containsExactly(
                        tp("payments", 0), tp("payments", 3), tp("orders", 0), tp("orders", 2), tp("orders", 10));
    }

    @Test
    void removingThroughTheIteratorDropsTopicsLeftEmpty() {
        PartitionIndex index = new PartitionIndex();
        index.addTopic("orders", 3);
        index.addTopic("payments", 2);

        for (Iterator<TopicPartition> it = index.iterator(); it.hasNext(); ) {
            if (it.next().topic().equals("orders")) {
                it.remove();
            }
        }

        assertThat(index).containsExactly(tp("payments", 0), tp("payments", 1));
        assertThat(index.containsTopic("orders")).isFalse();
        assertThat(index.containsTopic("payments")).isTrue();
        assertThatThrownBy(() -> index.iterator().remove()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void addTopicCountsOnlyPartitionsNotThereYet() {
        PartitionIndex index = new PartitionIndex(List.of(tp("orders", 1)));

        index.addTopic("orders", 4);

        assertThat(index).hasSize(4).contains(tp("orders", 0), tp("orders", 3));
        assertThat(index.contains(tp("orders", 4))).isFalse();
    }

    @Test
    void refusesNegativePartitionNumbersAndIgnoresOtherObjects() {
        PartitionIndex index = new PartitionIndex();

        assertThatThrownBy(() -> index.add(tp("orders", -1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orders--1");
        assertThat(index.contains("orders-0")).isFalse();
        assertThat(index.remove(tp("orders", -1))).isFalse();
    }

    @Test
    void ofKeepsAnIndexAndCopiesAnyOtherCollection() {
        PartitionIndex index = new PartitionIndex(List.of(tp("orders", 0)));

        assertThat(PartitionIndex.of(index)).isSameAs(index);
        assertThat(PartitionIndex.of(List.of(tp("orders", 0), tp("orders", 0)))).containsExactly(tp("orders", 0));
    }

    private static PartitionIndex randomIndex(Random random) {
        PartitionIndex index = new PartitionIndex();
        int size = random.nextInt(30);
        for (int i = 0; i < size; i++) {
            index.add(new TopicPartition("orders-" + random.nextInt(12), random.nextInt(70)));
        }
        return index;
    }

    private static TopicPartition tp(String topic, int partition) {
        return new TopicPartition(topic, partition);
    }
}
