package io.streamsplit.connector.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class KafkaEnumeratorStateSerializerTest {

    /**
     * VERSION_1 bytes of: initial discovery finished, assigned orders-0 and orders-2, pending
     * orders-1 reading [5, 100). Written from the format description, never to be changed.
     */
    static final String VERSION_1_STATE = "010000000200066f72646572730000000000066f7264657273000000020000000100066f7264"
            + "657273000000010000000000000005" + "0000000000000064";

    private final KafkaEnumeratorStateSerializer serializer = new KafkaEnumeratorStateSerializer();

    static KafkaEnumeratorState sample() {
        return new KafkaEnumeratorState(
                List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 2)),
                List.of(new KafkaPartitionSplit(new TopicPartition("orders", 1), 5, 100)),
                true);
    }

    /**
     * VERSION_3 (the official 5.0 layout) of {@link #sample()}: three splits of split version 1,
     * assigned orders-0 and orders-2 without offsets, unassigned orders-1 reading [5, 100); initial
     * discovery finished. Never to be changed: the official source and older savepoints read it.
     */
    static final String VERSION_3_STATE = "00000003" + "00000001"
            + "0000001c" + "00066f7264657273" + "00000000" + "8000000000000000" + "8000000000000000" + "00000000"
            + "0000001c" + "00066f7264657273" + "00000002" + "8000000000000000" + "8000000000000000" + "00000000"
            + "0000001c" + "00066f7264657273" + "00000001" + "0000000000000005" + "0000000000000064" + "00000001"
            + "01";

    @Test
    void roundTrips() throws IOException {
        KafkaEnumeratorState state = sample();
        assertThat(serializer.deserialize(3, serializer.serialize(state))).isEqualTo(state);
        KafkaEnumeratorState empty = KafkaEnumeratorState.empty();
        assertThat(serializer.deserialize(3, serializer.serialize(empty))).isEqualTo(empty);
        KafkaEnumeratorState unresolved =
                new KafkaEnumeratorState(List.of(), List.of(), List.of(new TopicPartition("orders", 4)), false);
        assertThat(serializer.deserialize(3, serializer.serialize(unresolved))).isEqualTo(unresolved);
    }

    @Test
    void writesStoredVersion3Bytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(3);
        assertThat(HexFormat.of().formatHex(serializer.serialize(sample()))).isEqualTo(VERSION_3_STATE);
        assertThat(serializer.deserialize(3, HexFormat.of().parseHex(VERSION_3_STATE)))
                .isEqualTo(sample());
    }

    @Test
    void readsStoredVersion1Bytes() throws IOException {
        KafkaEnumeratorState state = serializer.deserialize(1, HexFormat.of().parseHex(VERSION_1_STATE));
        assertThat(state.initialDiscoveryFinished()).isTrue();
        assertThat(state.assignedPartitions())
                .containsExactly(new TopicPartition("orders", 0), new TopicPartition("orders", 2));
        assertThat(state.pendingSplits())
                .containsExactly(new KafkaPartitionSplit(new TopicPartition("orders", 1), 5, 100));
        assertThat(state).isEqualTo(sample());
    }

    @Test
    void rejectsUnknownVersionTrailingBytesAndImpossibleCounts() {
        byte[] bytes = HexFormat.of().parseHex(VERSION_1_STATE);
        assertThatThrownBy(() -> serializer.deserialize(7, bytes)).hasMessageContaining("version 7");
        assertThatThrownBy(() -> serializer.deserialize(1, Arrays.copyOf(bytes, bytes.length + 2)))
                .hasMessageContaining("trailing bytes");
        byte[] hugeCount = bytes.clone();
        hugeCount[1] = 0x7F; // assigned count ~2 billion
        assertThatThrownBy(() -> serializer.deserialize(1, hugeCount))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("announced");
    }
}
