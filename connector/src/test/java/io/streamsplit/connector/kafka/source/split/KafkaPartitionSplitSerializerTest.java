package io.streamsplit.connector.kafka.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class KafkaPartitionSplitSerializerTest {

    /** Bytes of split orders-3 starting at 42, unbounded, as VERSION_1 writes them (never change). */
    static final String VERSION_1_UNBOUNDED = "00066f726465727300000003000000000000002a8000000000000000";

    private final KafkaPartitionSplitSerializer serializer = new KafkaPartitionSplitSerializer();

    @Test
    void roundTripsBoundedAndUnboundedSplits() throws IOException {
        for (KafkaPartitionSplit split : new KafkaPartitionSplit[] {
            new KafkaPartitionSplit(new TopicPartition("orders", 3), 42),
            new KafkaPartitionSplit(new TopicPartition("päyments-ü", 0), 0, 1_000_000_000_000L)
        }) {
            assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(split)))
                    .isEqualTo(split);
        }
    }

    @Test
    void readsStoredVersion1Bytes() throws IOException {
        KafkaPartitionSplit split = serializer.deserialize(1, HexFormat.of().parseHex(VERSION_1_UNBOUNDED));
        assertThat(split).isEqualTo(new KafkaPartitionSplit(new TopicPartition("orders", 3), 42));
        assertThat(split.splitId()).isEqualTo("orders-3");
        assertThat(split.isBounded()).isFalse();
    }

    @Test
    void currentVersionStillWritesVersion1Layout() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(HexFormat.of()
                        .formatHex(serializer.serialize(new KafkaPartitionSplit(new TopicPartition("orders", 3), 42))))
                .isEqualTo(VERSION_1_UNBOUNDED);
    }

    @Test
    void rejectsUnknownVersionsTrailingBytesAndTruncation() {
        byte[] bytes = HexFormat.of().parseHex(VERSION_1_UNBOUNDED);
        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Unknown Kafka split state version 2");
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(1, trailing)).hasMessageContaining("trailing bytes");
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 3);
        assertThatThrownBy(() -> serializer.deserialize(1, truncated)).isInstanceOf(IOException.class);
    }

    @Test
    void rejectsNegativeOffsetsOtherThanTheOfficialMarkersAsCorruptState() throws IOException {
        byte[] bytes = HexFormat.of().parseHex(VERSION_1_UNBOUNDED);
        Arrays.fill(bytes, 12, 20, (byte) 0xFF); // starting offset -1: the official LATEST marker
        assertThat(serializer.deserialize(1, bytes).startingOffset()).isEqualTo(KafkaPartitionSplit.LATEST_OFFSET);
        bytes[19] = (byte) 0xF0; // -16
        assertThatThrownBy(() -> serializer.deserialize(1, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Corrupt Kafka split state");
    }
}
